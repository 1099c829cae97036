import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../webhooks-receiver/index.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';
import {
  asApiTimestamp,
  eventually,
  type Guidance,
  type GuidanceStop,
  guidanceClient,
  type ReceivedDelivery,
  secondsAgo,
  startReceiver,
  TIMESTAMP,
  type Truck,
} from './support-guidance.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const readOnly = { key: credentials.keys.company_readonly };
const [partnerFleet] = credentials.fleets.partner_granted;
const partner = { key: credentials.keys.partner_live, fleet: partnerFleet as string };
const guidance = guidanceClient(prod, company);

const TANK = 150;
const MPG = 6.5;
const GUIDANCE_ID = /^gd_[0-9A-HJKMNP-TV-Z]{26}$/;
const STOP_ID = /^gds_[0-9A-HJKMNP-TV-Z]{26}$/;
/** Well-formed, never issued. */
const UNKNOWN_STOP = 'gds_00000000000000000000000000';
const PLANNED_PHASES = ['stop_recommended', 'approaching_stop'];

const dallas = { latitude: 32.7767, longitude: -96.797 };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const fortWorth = { latitude: 32.7555, longitude: -97.3308, name: 'Fort Worth' };
const toDenver = { destination: denver, min_arrival_fuel_percent: 15 };

const stopPath = (vehicle: string, stopId: string, action: 'acknowledge' | 'skip') =>
  `/v1/vehicles/${vehicle}/guidance/stops/${stopId}/${action}`;

/** A session toward Denver whose plan came from a Dallas breadcrumb at 30 %, through the worker. */
async function plannedTowardDenver(truck: Truck): Promise<Guidance> {
  await guidance.start(truck.id, toDenver);
  await guidance.drive(truck, [{ ...dallas, recorded_at: secondsAgo(5), fuel_level_percent: 30 }]);
  return guidance.waitFor(truck.id, 'a plan from the Dallas breadcrumb', (g) => g.stops.length > 0);
}

/**
 * A recommended stop as the Guidance schema describes it, its net price the difference to the cent,
 * priced on the IFTA basis (a new fleet's default): the station's state tax credited.
 */
function expectWellFormedStop(stop: GuidanceStop): void {
  expect(stop.id).toMatch(STOP_ID);
  expect(stop.station).toEqual({
    id: expect.any(String),
    name: expect.any(String),
    chain: expect.any(String),
    latitude: expect.any(Number),
    longitude: expect.any(Number),
    address: expect.any(String),
    state: expect.stringMatching(/^[A-Z]{2}$/),
  });
  expect(stop.miles_ahead).toBeGreaterThanOrEqual(0);
  expect(stop.detour_miles).toBeGreaterThanOrEqual(0);
  expect(stop.price_usd_per_gallon).toBeGreaterThan(0);
  expect(stop.discount_usd_per_gallon).toBeGreaterThanOrEqual(0);
  expect(stop.net_price_usd_per_gallon).toBeCloseTo(
    stop.price_usd_per_gallon - stop.discount_usd_per_gallon,
    2,
  );
  expect(stop.fuel_tax_treatment).toBe('ifta');
  expect(stop.state_tax_usd_per_gallon).toBeGreaterThan(0);
  expect(stop.effective_price_usd_per_gallon).toBeCloseTo(
    stop.net_price_usd_per_gallon - (stop.state_tax_usd_per_gallon ?? 0),
    3,
  );
  expect(stop.price_is_stale).toBeTypeOf('boolean');
  expect(stop.reason.length).toBeGreaterThan(10);
  expect(stop.state).toBe('recommended');
  expect(stop.recommended_at).toMatch(TIMESTAMP);
  expect(stop.acknowledged_at).toBeNull();
}

describe('guidance driven by breadcrumbs', () => {
  it('awaits a position, then plans priced stops to Denver from the first breadcrumb (Dallas, 30 %)', async () => {
    const truck = await guidance.newTruck();
    const created = (await guidance.start(truck.id, toDenver)).json;
    expect(created.id).toMatch(GUIDANCE_ID);
    expect(created).toMatchObject({
      vehicle_id: truck.id,
      status: 'active',
      phase: 'awaiting_position',
      destination: denver,
      min_arrival_fuel_percent: 15,
      stops: [],
      skipped_stops: [],
      position: null,
      fuel: null,
      remaining_miles: null,
      projected_arrival_fuel_percent: null,
      plan_updated_at: null,
    });
    expect(created.created_at).toMatch(TIMESTAMP);

    const recordedAt = secondsAgo(5);
    await guidance.drive(truck, [{ ...dallas, recorded_at: recordedAt, fuel_level_percent: 30 }]);
    const planned = await guidance.waitFor(
      truck.id,
      'stops from the first breadcrumb',
      (g) => g.stops.length > 0,
    );

    expect(planned).toMatchObject({
      id: created.id,
      created_at: created.created_at,
      status: 'active',
      destination: denver,
      position: { ...dallas, recorded_at: asApiTimestamp(recordedAt), freshness: 'live' },
      fuel: {
        level_percent: 30,
        source: 'reported',
        reported_at: asApiTimestamp(recordedAt),
        freshness: 'live',
      },
    });
    expect(planned.revision).toBeGreaterThan(created.revision);
    expect(planned.plan_updated_at).toMatch(TIMESTAMP);
    expect(planned.plan_reason).toBeTypeOf('string');
    // Roughly 800 road miles, whichever interstates the routing engine picks.
    expect(planned.remaining_miles).toBeGreaterThan(750);
    expect(planned.remaining_miles).toBeLessThan(950);

    const [first] = planned.stops;
    expect(planned.phase).toBe((first?.miles_ahead ?? 0) <= 10 ? 'approaching_stop' : 'stop_recommended');
    for (const stop of planned.stops) {
      expectWellFormedStop(stop);
      expect(stop.reason).toMatch(/\$\d+\.\d{2}/);
      expect(stop.gallons_to_buy).toBeGreaterThan(0);
      expect(stop.gallons_to_buy).toBeLessThanOrEqual(TANK);
      expect(stop.miles_ahead).toBeLessThan(planned.remaining_miles as number);
    }
    const milesAhead = planned.stops.map((s) => s.miles_ahead);
    expect(milesAhead).toEqual([...milesAhead].sort((a, b) => a - b));

    // The purchases cover the trip: 45 gal on board + bought − burned leaves at least the 15 %.
    const bought = planned.stops.reduce((sum, s) => sum + (s.gallons_to_buy ?? 0), 0);
    const arrivalPercent = ((0.3 * TANK + bought - (planned.remaining_miles as number) / MPG) / TANK) * 100;
    expect(arrivalPercent).toBeGreaterThanOrEqual(15 - 1);
    expect(planned.projected_arrival_fuel_percent).toBeGreaterThanOrEqual(15 - 0.1);
    expect(planned.projected_arrival_fuel_percent).toBeLessThan(arrivalPercent + 2);
  });

  it('plans at once when the position is already known, and a GET right after returns the same bytes', async () => {
    const truck = await guidance.newTruck();
    // The worker has consumed the breadcrumb once this first session shows stops, so no cycle
    // can run between the POST and the GET below.
    const earlier = await plannedTowardDenver(truck);

    const created = await guidance.start(truck.id, toDenver);
    const fetched = await guidance.read(truck.id);

    expect(created.json.id).toMatch(GUIDANCE_ID);
    expect(created.json.id).not.toBe(earlier.id);
    expect(PLANNED_PHASES).toContain(created.json.phase);
    expect(created.json.stops.length).toBeGreaterThan(0);
    expect(created.json.fuel).toMatchObject({ level_percent: 30, source: 'reported' });
    expect(fetched.status, fetched.text).toBe(200);
    expect(fetched.json).toEqual(created.json);
    // Spec section 1, rule 5: a create response and a following GET agree byte for byte.
    expect(fetched.text).toBe(created.text);
  });

  it('estimates fuel when later breadcrumbs omit the level, and then gives no gallons to buy', async () => {
    const truck = await guidance.newTruck();
    await guidance.start(truck.id, toDenver);
    const reportedAt = secondsAgo(50 * 60);
    await guidance.drive(truck, [{ ...dallas, recorded_at: reportedAt, fuel_level_percent: 50 }]);
    const reported = await guidance.waitFor(
      truck.id,
      'a plan from the reported level',
      (g) => g.stops.length > 0,
    );
    expect(reported.fuel).toMatchObject({ level_percent: 50, source: 'reported' });
    expect(reported.stops.every((s) => s.gallons_to_buy !== null)).toBe(true);

    // North on I-35 through Denton, about 60 road miles, no level reported.
    const lastAt = secondsAgo(60);
    await guidance.drive(truck, [
      { latitude: 33.2148, longitude: -97.1331, recorded_at: secondsAgo(20 * 60), speed_mph: 62 },
      { latitude: 33.6, longitude: -97.15, recorded_at: lastAt, speed_mph: 64 },
    ]);
    const estimated = await guidance.waitFor(
      truck.id,
      'an estimated fuel level',
      (g) => g.fuel?.source === 'estimated' && g.stops.length > 0,
    );
    expect(estimated.position).toMatchObject({
      latitude: 33.6,
      longitude: -97.15,
      recorded_at: asApiTimestamp(lastAt),
    });
    expect(estimated.fuel?.reported_at).toBe(asApiTimestamp(reportedAt));
    expect(estimated).toMatchObject({
      fuel_level_source: 'projected',
      fuel_level_as_of: asApiTimestamp(lastAt),
      fuel_level_percent: estimated.fuel?.level_percent,
    });
    // About 60 miles at 6.5 mpg burn ~9 gal, ~6 % of 150 gal.
    expect(estimated.fuel?.level_percent).toBeLessThan(50);
    expect(estimated.fuel?.level_percent).toBeGreaterThan(35);
    expect(PLANNED_PHASES).toContain(estimated.phase);
    for (const stop of estimated.stops) {
      expect(stop.gallons_to_buy).toBeNull();
      expect(stop.net_price_usd_per_gallon).toBeCloseTo(
        stop.price_usd_per_gallon - stop.discount_usd_per_gallon,
        2,
      );
    }
  });

  it("plans from the fleet's assumed level while positions come without one, then from the reported one", async () => {
    const truck = await guidance.newTruck();
    await guidance.drive(truck, [{ ...dallas, recorded_at: secondsAgo(120) }]);
    const created = (await guidance.start(truck.id, toDenver)).json;
    // The company fleet never set assumed_departure_fuel_percent: a full tank.
    expect(created).toMatchObject({
      fuel: null,
      fuel_level_percent: 100,
      fuel_level_source: 'assumed',
      position: dallas,
    });
    expect([...PLANNED_PHASES, 'no_stop_needed']).toContain(created.phase);
    expect(created.stops.every((s) => s.gallons_to_buy === null)).toBe(true);

    await guidance.drive(truck, [
      { latitude: 32.9, longitude: -96.9, recorded_at: secondsAgo(5), fuel_level_percent: 30 },
    ]);
    const planned = await guidance.waitFor(truck.id, 'a plan from the level', (g) => g.stops.length > 0);
    expect(PLANNED_PHASES).toContain(planned.phase);
    expect(planned.fuel).toMatchObject({ level_percent: 30, source: 'reported' });
    expect(planned).toMatchObject({ fuel_level_percent: 30, fuel_level_source: 'reported' });
    expect(planned.stops.every((s) => s.gallons_to_buy !== null)).toBe(true);
  });

  it('needs no stop for a short trip on a full tank, and ends the session on arrival', async () => {
    const truck = await guidance.newTruck();
    const created = (await guidance.start(truck.id, { destination: fortWorth, min_arrival_fuel_percent: 15 }))
      .json;
    await guidance.drive(truck, [{ ...dallas, recorded_at: secondsAgo(120), fuel_level_percent: 90 }]);
    const planned = await guidance.waitFor(truck.id, 'a plan', (g) => g.phase !== 'awaiting_position');
    expect(planned).toMatchObject({ id: created.id, phase: 'no_stop_needed', stops: [] });
    expect(planned.remaining_miles).toBeGreaterThan(25);
    expect(planned.remaining_miles).toBeLessThan(45);
    expect(planned.projected_arrival_fuel_percent).toBeGreaterThan(80);
    expect(planned.projected_arrival_fuel_percent).toBeLessThan(90);

    await guidance.drive(truck, [
      { latitude: 32.756, longitude: -97.331, recorded_at: secondsAgo(5), fuel_level_percent: 89 },
    ]);
    const ended = await guidance.waitFor(
      truck.id,
      'the session to end on arrival',
      (_, r) => r.status === 404,
    );
    expect(ended).toMatchObject({ code: 'no_active_guidance' });
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
  });

  it('cannot reach Denver on a nearly empty tank; any stop shown is within the fuel on board', async () => {
    const truck = await guidance.newTruck();
    // 1 % of 150 gal at 6.5 mpg is under 10 miles: not even the reserve gets the truck anywhere useful.
    await guidance.drive(truck, [{ ...dallas, recorded_at: secondsAgo(30), fuel_level_percent: 1 }]);
    const session = (await guidance.start(truck.id, toDenver)).json;
    expect(session.phase, JSON.stringify(session)).toBe('cannot_reach');
    expect(session.fuel).toMatchObject({ level_percent: 1, source: 'reported' });
    expect(session.projected_arrival_fuel_percent).toBeNull();
    expect(session.plan_reason).toBeTypeOf('string');
    expect(session.remaining_miles).toBeGreaterThan(750);
    expect(session.stops.length).toBeLessThanOrEqual(1);
    for (const stop of session.stops) {
      expect(stop.id).toMatch(STOP_ID);
      expect(stop.miles_ahead + stop.detour_miles / 2).toBeLessThanOrEqual(0.01 * TANK * MPG + 0.5);
    }
    expect((await guidance.current(truck.id)).phase).toBe('cannot_reach');
  });

  it('shows data_stale while the latest position is over 30 minutes old, and recomputes on a fresh one', async () => {
    const truck = await guidance.newTruck();
    await guidance.drive(truck, [{ ...dallas, recorded_at: secondsAgo(45 * 60), fuel_level_percent: 30 }]);
    const stale = (await guidance.start(truck.id, toDenver)).json;
    expect(stale.phase).toBe('data_stale');
    expect(stale.position?.freshness).toBe('stale');
    expect(stale.stops.length).toBeGreaterThan(0);

    await guidance.drive(truck, [{ ...dallas, recorded_at: secondsAgo(5), fuel_level_percent: 30 }]);
    const fresh = await guidance.waitFor(truck.id, 'a fresh plan', (g) => g.phase !== 'data_stale');
    expect(PLANNED_PHASES).toContain(fresh.phase);
    expect(fresh.position?.freshness).toBe('live');
  });
});

describe('session lifecycle', () => {
  it('a second POST supersedes the session; DELETE ends it (204), after which GET and DELETE are 404', async () => {
    const truck = await guidance.newTruck();
    const first = (await guidance.start(truck.id, toDenver)).json;
    const second = (await guidance.start(truck.id, { destination: fortWorth, min_arrival_fuel_percent: 20 }))
      .json;
    expect(second.id).toMatch(GUIDANCE_ID);
    expect(second.id).not.toBe(first.id);
    const current = await guidance.read(truck.id);
    expect(current.status).toBe(200);
    expect(current.json).toMatchObject({
      id: second.id,
      destination: fortWorth,
      min_arrival_fuel_percent: 20,
    });

    const deleted = await prod.delete(guidance.path(truck.id), company);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe('');
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
    expectProblem(await prod.delete(guidance.path(truck.id), company), 404, 'no_active_guidance');
  });

  it('ends the session when the vehicle is deactivated, and refuses a new one until it is reactivated', async () => {
    const truck = await guidance.newTruck();
    await guidance.start(truck.id, toDenver);
    const deactivated = await prod.post(`/v1/vehicles/${truck.id}/deactivate`, company);
    expect(deactivated.status, deactivated.text).toBe(200);
    // The vehicle can still be read, but it has no active guidance any more.
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
    expectProblem(
      await prod.post(guidance.path(truck.id), { ...company, body: toDenver }),
      409,
      'vehicle_inactive',
    );
    const reactivated = await prod.post(`/v1/vehicles/${truck.id}/reactivate`, company);
    expect(reactivated.status, reactivated.text).toBe(200);
    await guidance.start(truck.id, toDenver);
  });

  it('addresses the vehicle as ext:<external_ref> for POST, GET and DELETE', async () => {
    const truck = await guidance.newTruck();
    const byRef = encodeURIComponent(`ext:${truck.ref}`);
    const created = await guidance.start(byRef, {
      destination: { latitude: 39.7392, longitude: -104.9903 },
      min_arrival_fuel_percent: 10,
    });
    expect(created.json).toMatchObject({ vehicle_id: truck.id, destination: { name: null } });
    const fetched = await guidance.read(byRef);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(created.json);
    expect((await guidance.current(truck.id)).id).toBe(created.json.id);
    expect((await prod.delete(guidance.path(byRef), company)).status).toBe(204);
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
  });

  it('lets a guidance:read key read the session but not change it (403 insufficient_scope)', async () => {
    const truck = await guidance.newTruck();
    const planned = await plannedTowardDenver(truck);
    const read = await prod.get(guidance.path(truck.id), readOnly);
    expect(read.status, read.text).toBe(200);
    expect(read.json.id).toBe(planned.id);

    const stopId = planned.stops[0]?.id as string;
    const attempts = [
      prod.post(guidance.path(truck.id), { ...readOnly, body: toDenver }),
      prod.delete(guidance.path(truck.id), readOnly),
      prod.post(stopPath(truck.id, stopId, 'acknowledge'), readOnly),
      prod.post(stopPath(truck.id, stopId, 'skip'), readOnly),
    ];
    for (const response of await Promise.all(attempts)) {
      expectProblem(response, 403, 'insufficient_scope');
      expect(response.json.required_scope).toBe('guidance:manage');
    }
    const after = await guidance.current(truck.id);
    expect(after.id).toBe(planned.id);
    expect(after.stops.map((s) => [s.id, s.state])).toEqual(planned.stops.map((s) => [s.id, 'recommended']));
    expect(after.skipped_stops).toEqual([]);
  });
});

describe('acknowledging and skipping stops', () => {
  it('acknowledges a stop (204, twice is once) and keeps it acknowledged across a recompute', async () => {
    const truck = await guidance.newTruck();
    const planned = await plannedTowardDenver(truck);
    const stop = planned.stops[0] as GuidanceStop;

    const acked = await prod.post(stopPath(truck.id, stop.id, 'acknowledge'), company);
    expect(acked.status, acked.text).toBe(204);
    expect(acked.text).toBe('');
    const after = await guidance.current(truck.id);
    const mine = after.stops.find((s) => s.id === stop.id);
    expect(mine).toMatchObject({ state: 'acknowledged', station: stop.station });
    expect(mine?.acknowledged_at).toMatch(TIMESTAMP);
    expect(Date.parse(mine?.acknowledged_at as string)).toBeGreaterThanOrEqual(
      Date.parse(stop.recommended_at),
    );
    for (const other of after.stops.filter((s) => s.id !== stop.id)) expect(other.state).toBe('recommended');

    expect((await prod.post(stopPath(truck.id, stop.id, 'acknowledge'), company)).status).toBe(204);
    const again = (await guidance.current(truck.id)).stops.find((s) => s.id === stop.id);
    expect(again?.acknowledged_at).toBe(mine?.acknowledged_at);

    // The truck is still in Dallas: the recomputed plan keeps the station, its stop id and the ack.
    const stillAt = secondsAgo(1);
    await guidance.drive(truck, [{ ...dallas, recorded_at: stillAt, fuel_level_percent: 30 }]);
    const recomputed = await guidance.waitFor(
      truck.id,
      'the recompute from the newer breadcrumb',
      (g) => g.position?.recorded_at === asApiTimestamp(stillAt),
    );
    expect(recomputed.stops.find((s) => s.id === stop.id)).toMatchObject({
      state: 'acknowledged',
      acknowledged_at: mine?.acknowledged_at,
    });
  });

  it('skips a stop: it leaves the stops at once, and the worker replans without its station', async () => {
    const truck = await guidance.newTruck();
    const planned = await plannedTowardDenver(truck);
    const skipped = planned.stops[0] as GuidanceStop;

    const skip = await prod.post(stopPath(truck.id, skipped.id, 'skip'), {
      ...company,
      body: { reason: 'Closed for repairs' },
    });
    expect(skip.status, skip.text).toBe(204);
    expect(skip.text).toBe('');
    const right = await guidance.current(truck.id);
    expect(right.stops.map((s) => s.id)).not.toContain(skipped.id);
    expect(right.skipped_stops).toEqual([
      {
        stop_id: skipped.id,
        station_id: skipped.station.id,
        name: skipped.station.name,
        reason: 'Closed for repairs',
        skipped_at: expect.stringMatching(TIMESTAMP),
      },
    ]);

    const replanned = await guidance.waitFor(
      truck.id,
      'a new plan without the skipped station',
      (g) => g.revision > planned.revision && g.stops.length > 0,
    );
    expect(PLANNED_PHASES).toContain(replanned.phase);
    expect(replanned.stops[0]?.station.id).not.toBe(skipped.station.id);
    expect(replanned.stops.map((s) => s.station.id)).not.toContain(skipped.station.id);
    for (const stop of replanned.stops) expectWellFormedStop(stop);
    expectProblem(
      await prod.post(stopPath(truck.id, skipped.id, 'acknowledge'), company),
      409,
      'resource_conflict',
    );

    // A skip without a body (the published call) and without a reason.
    const next = replanned.stops[0] as GuidanceStop;
    expect((await prod.post(stopPath(truck.id, next.id, 'skip'), company)).status).toBe(204);
    const twice = await guidance.waitFor(
      truck.id,
      'a plan without either skipped station',
      (g) => g.revision > replanned.revision && g.stops.length > 0,
    );
    const avoided = [skipped.station.id, next.station.id];
    for (const stop of twice.stops) expect(avoided).not.toContain(stop.station.id);
    expect(twice.skipped_stops.map((s) => [s.stop_id, s.reason])).toEqual([
      [skipped.id, 'Closed for repairs'],
      [next.id, null],
    ]);
  });

  it('answers 404 for an unknown stop, 400 for a malformed stop id, 422 for an unknown skip field', async () => {
    const truck = await guidance.newTruck();
    const planned = await plannedTowardDenver(truck);
    for (const action of ['acknowledge', 'skip'] as const) {
      expectProblem(
        await prod.post(stopPath(truck.id, UNKNOWN_STOP, action), company),
        404,
        'resource_not_found',
      );
      expectProblem(await prod.post(stopPath(truck.id, 'stop-1', action), company), 400, 'invalid_public_id');
      expectProblem(
        await prod.post(stopPath(truck.id, planned.id, action), company),
        400,
        'invalid_public_id',
      );
    }
    const stopId = planned.stops[0]?.id as string;
    const extra = await prod.post(stopPath(truck.id, stopId, 'skip'), {
      ...company,
      body: { reason: 'closed', station: 'other' },
    });
    expectProblem(extra, 422, 'validation_failed');
    expect(extra.json.errors.map((e: { field: string }) => e.field)).toEqual(['station']);
    expect((await guidance.current(truck.id)).skipped_stops).toEqual([]);
  });
});

describe('guidance errors', () => {
  it('422 insufficient_fuel_data without tank_size_gallons or estimated_mpg, until both are set', async () => {
    const bare = await guidance.newTruck({});
    const noMpg = await guidance.newTruck({ tank_size_gallons: TANK });
    for (const truck of [bare, noMpg]) {
      const response = await prod.post(guidance.path(truck.id), { ...company, body: toDenver });
      expectProblem(response, 422, 'insufficient_fuel_data');
      expect(response.json.hint).toContain('PATCH');
      expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
    }
    const patched = await prod.patch(`/v1/vehicles/${noMpg.id}`, {
      ...company,
      body: { estimated_mpg: MPG },
    });
    expect(patched.status, patched.text).toBe(200);
    await guidance.start(noMpg.id, toDenver);
  });

  it('409 vehicle_inactive for a deactivated vehicle', async () => {
    const truck = await guidance.newTruck();
    const deactivated = await prod.post(`/v1/vehicles/${truck.id}/deactivate`, company);
    expect(deactivated.status, deactivated.text).toBe(200);
    expectProblem(
      await prod.post(guidance.path(truck.id), { ...company, body: toDenver }),
      409,
      'vehicle_inactive',
    );
  });

  it('404 no_active_guidance for GET, DELETE, acknowledge and skip without a session', async () => {
    const truck = await guidance.newTruck();
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
    expectProblem(await prod.delete(guidance.path(truck.id), company), 404, 'no_active_guidance');
    for (const action of ['acknowledge', 'skip'] as const) {
      expectProblem(
        await prod.post(stopPath(truck.id, UNKNOWN_STOP, action), company),
        404,
        'no_active_guidance',
      );
    }
  });

  it("404 resource_not_found for an unknown vehicle and for another fleet's vehicle, both ways", async () => {
    expectProblem(
      await prod.post('/v1/vehicles/veh_00000000000000000000000000/guidance', { ...company, body: toDenver }),
      404,
      'resource_not_found',
    );
    expectProblem(
      await prod.post('/v1/vehicles/ext:NO-SUCH-TRUCK/guidance', { ...company, body: toDenver }),
      404,
      'resource_not_found',
    );

    const theirs = await guidanceClient(prod, partner).newTruck();
    const theirSession = await guidanceClient(prod, partner).start(theirs.id, toDenver);
    for (const vehicle of [theirs.id, encodeURIComponent(`ext:${theirs.ref}`)]) {
      expectProblem(
        await prod.post(guidance.path(vehicle), { ...company, body: toDenver }),
        404,
        'resource_not_found',
      );
      expectProblem(await guidance.read(vehicle), 404, 'resource_not_found');
      expectProblem(await prod.delete(guidance.path(vehicle), company), 404, 'resource_not_found');
    }
    const stillTheirs = await prod.get(guidance.path(theirs.id), partner);
    expect(stillTheirs.json.id).toBe(theirSession.json.id);

    const mine = await guidance.newTruck();
    await guidance.start(mine.id, toDenver);
    expectProblem(await prod.get(guidance.path(mine.id), partner), 404, 'resource_not_found');
  });

  it('422 validation_failed naming each offending field; 400 invalid_public_id for a malformed vehicle id', async () => {
    const truck = await guidance.newTruck();
    const cases: [unknown, string[]][] = [
      [{ ...toDenver, min_arrival_fuel_percent: 101 }, ['min_arrival_fuel_percent']],
      [{ ...toDenver, min_arrival_fuel_percent: -1 }, ['min_arrival_fuel_percent']],
      [{ destination: { longitude: -104.9903 }, min_arrival_fuel_percent: 15 }, ['destination.latitude']],
      [{ ...toDenver, destination: { ...denver, latitude: 91 } }, ['destination.latitude']],
      [{ destination: denver, min_arrival_fuel_percent: '15' }, ['min_arrival_fuel_percent']],
      [{ ...toDenver, vehicle_id: truck.id }, ['vehicle_id']],
      [{ ...toDenver, destination: { ...denver, zip: '80202' } }, ['destination.zip']],
    ];
    for (const [body, fields] of cases) {
      const response = await prod.post(guidance.path(truck.id), { ...company, body });
      expectProblem(response, 422, 'validation_failed');
      expect(
        response.json.errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toEqual(fields);
    }
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
    expectProblem(
      await prod.get('/v1/vehicles/gd_00000000000000000000000000/guidance', company),
      400,
      'invalid_public_id',
    );
  });
});

describe.runIf(isLocalTarget())('guidance and vehicle webhooks (local stack)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpoint: { id: string; secret: string };

  beforeAll(async () => {
    receiver = await startReceiver();
    const created = await prod.post('/v1/webhooks', {
      ...company,
      body: { url: receiver.url, event_types: ['guidance.updated', 'vehicle.fuel_low'] },
    });
    expect(created.status, created.text).toBe(201);
    endpoint = created.json;
  });
  afterAll(async () => {
    if (endpoint) await prod.delete(`/v1/webhooks/${endpoint.id}`, company);
    await receiver?.close();
  });

  const delivered = (guidanceId: string, change: string) =>
    eventually(`guidance.updated (${change}) for ${guidanceId}`, () =>
      receiver.received.find((r: ReceivedDelivery) => {
        const data = JSON.parse(r.body).data;
        return data?.guidance_id === guidanceId && data.change === change;
      }),
    );

  it('delivers what the guidance worker finds in breadcrumbs: the refreshed plan and a low-fuel alarm', async () => {
    const truck = await guidance.newTruck();
    const session = (await guidance.start(truck.id, toDenver)).json;
    // Seven minutes in Dallas with the gauge falling from 26 % to 16 %, sent as one batch.
    const levels = [26, 24, 22, 19, 18, 17, 16];
    await guidance.drive(
      truck,
      levels.map((fuel, i) => ({
        ...dallas,
        fuel_level_percent: fuel,
        recorded_at: secondsAgo((levels.length - i) * 60),
      })),
    );
    const refreshed = JSON.parse((await delivered(session.id, 'refreshed')).body);
    expect(refreshed.data.stop_ids.length).toBeGreaterThan(0);
    const low = await eventually('vehicle.fuel_low', () =>
      receiver.received.find((r: ReceivedDelivery) => {
        const envelope = JSON.parse(r.body);
        return envelope.type === 'vehicle.fuel_low' && envelope.data.vehicle_id === truck.id;
      }),
    );
    const alarm = JSON.parse(low.body);
    // The vehicle by both keys: its id and the caller's own reference.
    expect(alarm.data).toMatchObject({
      vehicle_id: truck.id,
      external_ref: truck.ref,
      threshold_percent: 20,
    });
    expect(refreshed.data.external_ref).toBe(truck.ref);
    expect(alarm.data.fuel_level_percent).toBeLessThan(20);
    expect(
      verifyWebhookSignature({
        rawBody: low.body,
        header: String(low.headers['x-service-signature']),
        secrets: endpoint.secret,
      }).ok,
    ).toBe(true);
    // One crossing, one alarm (no second delivery for the same vehicle).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      receiver.received.filter((r: ReceivedDelivery) => {
        const envelope = JSON.parse(r.body);
        return envelope.type === 'vehicle.fuel_low' && envelope.data.vehicle_id === truck.id;
      }),
    ).toHaveLength(1);
  });

  it('announces created on POST, cleared for a superseded session, and cleared on DELETE, signed', async () => {
    const truck = await guidance.newTruck();
    const first = (await guidance.start(truck.id, toDenver)).json;
    const created = await delivered(first.id, 'created');
    const envelope = JSON.parse(created.body);
    expect(envelope).toMatchObject({
      type: 'guidance.updated',
      fleet_id: credentials.fleets.company,
      sandbox: false,
      data: { vehicle_id: truck.id, external_ref: truck.ref, guidance_id: first.id, change: 'created' },
    });
    expect(envelope.id).toMatch(/^evt_/);
    expect(created.headers['x-service-event-type']).toBe('guidance.updated');
    expect(created.headers['x-service-event-id']).toBe(envelope.id);
    const verified = verifyWebhookSignature({
      rawBody: created.body,
      header: String(created.headers['x-service-signature']),
      secrets: endpoint.secret,
    });
    expect(verified.ok).toBe(true);

    const second = (await guidance.start(truck.id, toDenver)).json;
    const superseded = JSON.parse((await delivered(first.id, 'cleared')).body);
    expect(superseded.data).toMatchObject({ vehicle_id: truck.id, guidance_id: first.id });
    await delivered(second.id, 'created');

    expect((await prod.delete(guidance.path(truck.id), company)).status).toBe(204);
    const cleared = await delivered(second.id, 'cleared');
    expect(JSON.parse(cleared.body).data).toMatchObject({
      vehicle_id: truck.id,
      guidance_id: second.id,
      change: 'cleared',
      reason: 'caller_cancelled',
    });
    expect(
      verifyWebhookSignature({
        rawBody: cleared.body,
        header: String(cleared.headers['x-service-signature']),
        secrets: endpoint.secret,
      }).ok,
    ).toBe(true);
  });
});
