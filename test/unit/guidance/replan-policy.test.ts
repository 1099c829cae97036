import { describe, expect, it } from 'vitest';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { announce, MAX_REMEMBERED_STOPS } from '#shared/guidance/domain/announcement.ts';
import { replanBeforeRouting, replanOnRoute } from '#shared/guidance/domain/replan-policy.ts';
import {
  endSession,
  type GuidanceSession,
  type GuidanceStop,
  startSession,
} from '#shared/guidance/domain/session.ts';
import type { VehicleSnapshot } from '#shared/guidance/domain/snapshot.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const FLEET = 'flt_1';
/** The stations here are in Texas unless a test says otherwise: one tax for all, so the credit changes no choice. */
const PRICING = { taxes: SHIPPED_FUEL_TAX_TABLE, treatment: 'ifta' as const };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const AMARILLO = { latitude: 35.222, longitude: -101.8313 };

const newSession = (overrides: Partial<GuidanceSession> = {}): GuidanceSession => ({
  ...startSession({
    id: 'gd_1',
    vehicleId: 'veh_1',
    destination: DENVER,
    minArrivalFuelPercent: 15,
    nowMs: NOW - 60_000,
  }),
  ...overrides,
});

const snapshot = (overrides: Partial<VehicleSnapshot> = {}): VehicleSnapshot => ({
  vehicle: { id: 'veh_1', tankSizeGallons: 150, estimatedMpg: 6.5 },
  position: { ...AMARILLO, recordedAtMs: NOW },
  fuel: { percent: 40, source: 'reported', reportedAtMs: NOW },
  dwellingAtStationId: null,
  ...overrides,
});

const stop = (id: string, overrides: Partial<GuidanceStop> = {}): GuidanceStop => ({
  id,
  stationId: `stn_${id}`,
  name: `Stop ${id}`,
  chain: 'Pilot',
  latitude: 36,
  longitude: -102,
  address: '',
  milesAhead: 120,
  detourMiles: 0.4,
  gallonsToBuy: 80,
  price: 3.459,
  discount: 0,
  netPrice: 3.459,
  priceIsStale: false,
  reason: 'cheapest',
  recommendedAtMs: NOW,
  acknowledgedAtMs: null,
  ...overrides,
});

const station = (id: string, price: number): Station => ({
  id,
  name: id,
  chain: 'Pilot',
  latitude: 36,
  longitude: -102,
  address: '',
  state: 'TX',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: price,
  priceUpdatedAtMs: NOW,
});

describe('what a replan decides before it needs a route', () => {
  it('leaves an ended session as it is', () => {
    const ended = endSession(newSession(), 'caller_cancelled', NOW);
    expect(replanBeforeRouting(FLEET, ended, snapshot(), NOW)).toEqual({
      kind: 'decided',
      update: { session: ended, events: [] },
    });
  });

  it('waits for a position, announcing the new session', () => {
    const step = replanBeforeRouting(FLEET, newSession(), snapshot({ position: null }), NOW);
    expect(step.kind).toBe('decided');
    if (step.kind !== 'decided') return;
    expect(step.update.session).toMatchObject({ phase: 'awaiting_position', revision: 1, updatedAtMs: NOW });
    expect(step.update.events).toEqual([
      {
        type: 'guidance.updated',
        dedupeKey: `guidance.updated:${FLEET}:gd_1:1`,
        data: {
          vehicle_id: 'veh_1',
          guidance_id: 'gd_1',
          change: 'created',
          status: 'active',
          phase: 'awaiting_position',
          plan_status: null,
          stop_ids: [],
        },
      },
    ]);
  });

  it('ends a session at its destination, announcing it first when it was never announced', () => {
    const atDestination = snapshot({ position: { ...DENVER, recordedAtMs: NOW } });
    const step = replanBeforeRouting(FLEET, newSession(), atDestination, NOW);
    if (step.kind !== 'decided') throw new Error('expected a decision');
    expect(step.update.session).toMatchObject({
      status: 'completed',
      endReason: 'arrived',
      phase: 'arrived',
      remainingMiles: 0,
    });
    expect(step.update.events.map((e) => [e.dedupeKey, e.data.change, e.data.reason])).toEqual([
      [`guidance.updated:${FLEET}:gd_1:1`, 'created', undefined],
      [`guidance.updated:${FLEET}:gd_1:completed`, 'cleared', 'arrived'],
    ]);
  });

  it('waits only for the vehicle’s tank and mileage, without which no level is projected or assumed', () => {
    const noTank = snapshot({
      vehicle: { id: 'veh_1', tankSizeGallons: null, estimatedMpg: 6.5 },
      fuel: null,
    });
    const withoutTank = replanBeforeRouting(FLEET, newSession(), noTank, NOW);
    if (withoutTank.kind !== 'decided') throw new Error('expected a decision');
    expect(withoutTank.update.session.phase).toBe('awaiting_fuel_level');
    expect(withoutTank.update.session.planReason).toMatch(/PATCH \/v1\/vehicles\/veh_1$/);
  });

  it('plans from an assumed level, keeping the assumption as the snapshot anchored it', () => {
    const anchored = { percent: 100, atMs: NOW, odometerMiles: 12.5 };
    const assumed = snapshot({
      fuel: { percent: 100, source: 'assumed', reportedAtMs: null, asOfMs: NOW },
      fuelAssumption: anchored,
    });
    const step = replanBeforeRouting(FLEET, newSession(), assumed, NOW);
    if (step.kind !== 'route_needed') throw new Error('expected a plan on the route');
    expect(step.fuel).toMatchObject({ percent: 100, source: 'assumed' });
    expect(step.base.fuelAssumption).toEqual(anchored);
  });

  it('keeps the plan while the vehicle dwells at a recommended stop, unless a skip forces a new one', () => {
    const planned = newSession({ stops: [stop('a')], revision: 1, announced: [] });
    const dwelling = snapshot({ dwellingAtStationId: 'stn_a' });
    const step = replanBeforeRouting(FLEET, planned, dwelling, NOW);
    if (step.kind !== 'decided') throw new Error('expected a decision');
    expect(step.update.session.phase).toBe('at_stop');
    expect(replanBeforeRouting(FLEET, { ...planned, forceReplan: true }, dwelling, NOW).kind).toBe(
      'route_needed',
    );
  });

  it('needs the route otherwise, with the session brought up to date', () => {
    const step = replanBeforeRouting(FLEET, newSession(), snapshot(), NOW);
    expect(step).toMatchObject({
      kind: 'route_needed',
      base: { position: { ...AMARILLO, recordedAtMs: NOW }, updatedAtMs: NOW },
      tankGallons: 150,
      mpg: 6.5,
    });
  });
});

describe('the plan on the remaining route', () => {
  it('leaves skipped stations and those behind the vehicle out, and counts miles from the vehicle', () => {
    const skippedStop = {
      stopId: 'gds_x',
      stationId: 'skipped',
      name: 'skipped',
      reason: null,
      skippedAtMs: NOW,
    };
    const session = newSession({ skipped: [skippedStop] });
    const step = replanBeforeRouting(
      FLEET,
      session,
      snapshot({ fuel: { percent: 20, source: 'reported', reportedAtMs: NOW } }),
      NOW,
    );
    if (step.kind !== 'route_needed') throw new Error('expected the route to be needed');
    const corridor = [
      { station: station('behind', 2.5), milesAlongRoute: 50, offRouteMiles: 0.1 },
      { station: station('skipped', 2.6), milesAlongRoute: 150, offRouteMiles: 0.1 },
      { station: station('ahead', 3.4), milesAlongRoute: 160, offRouteMiles: 0.1 },
    ];
    const update = replanOnRoute(
      FLEET,
      session,
      step,
      { corridor, distanceMiles: 600, progressMiles: 100, program: NO_FUEL_PROGRAM, pricing: PRICING },
      NOW,
    );
    expect(update.session.stops.map((s) => [s.stationId, s.milesAhead])).toEqual([['ahead', 60]]);
    expect(update.session.remainingMiles).toBe(500);
  });
});

describe('commitment to the stop shown', () => {
  const corridor = [
    { station: station('stn_near', 3.6), milesAlongRoute: 110, offRouteMiles: 0.1 },
    { station: station('stn_ahead', 3.2), milesAlongRoute: 260, offRouteMiles: 0.1 },
  ];
  const route = {
    corridor,
    distanceMiles: 400,
    progressMiles: 100,
    program: NO_FUEL_PROGRAM,
    pricing: PRICING,
  };
  const shown = newSession({ revision: 1, phase: 'approaching_stop', stops: [stop('near')] });
  const replanWith = (refueled: boolean) => {
    const step = replanBeforeRouting(
      FLEET,
      shown,
      snapshot({ fuel: { percent: 70, source: 'reported', reportedAtMs: NOW }, refueled }),
      NOW,
    );
    if (step.kind !== 'route_needed') throw new Error('expected the route to be needed');
    return replanOnRoute(FLEET, shown, step, route, NOW);
  };

  it('keeps a stop 10 miles out that the new plan would not need, with the minimum purchase', () => {
    const kept = replanWith(false);
    expect(kept.session.stops.map((s) => [s.stationId, s.gallonsToBuy])).toEqual([['stn_near', 20]]);
    expect(kept.session.phase).toBe('approaching_stop');
  });

  it('starts afresh after a fill: the plan made for the old level is void', () => {
    const fresh = replanWith(true);
    expect(fresh.session).toMatchObject({ phase: 'no_stop_needed', stops: [] });
  });
});

describe('the urgent stop when nothing reaches the destination', () => {
  // 1,900 miles left and the last station 80 miles out: no plan reaches; both stations are in range.
  const corridor = [
    { station: station('stn_near', 3.6), milesAlongRoute: 120, offRouteMiles: 0.1 },
    { station: station('stn_far', 3.2), milesAlongRoute: 180, offRouteMiles: 0.1 },
  ];
  const urgentFor = (session: GuidanceSession) => {
    const step = replanBeforeRouting(
      FLEET,
      session,
      snapshot({ fuel: { percent: 12, source: 'reported', reportedAtMs: NOW } }),
      NOW,
    );
    if (step.kind !== 'route_needed') throw new Error('expected the route to be needed');
    return replanOnRoute(
      FLEET,
      session,
      step,
      { corridor, distanceMiles: 2_000, progressMiles: 100, program: NO_FUEL_PROGRAM, pricing: PRICING },
      NOW,
    ).session;
  };

  it('is the stop already shown while the fuel on board reaches it, else the nearest in range', () => {
    expect(urgentFor(newSession())).toMatchObject({
      phase: 'cannot_reach',
      stops: [{ stationId: 'stn_near' }],
    });
    const shown = newSession({ revision: 1, stops: [stop('far', { stationId: 'stn_far' })] });
    const kept = urgentFor(shown);
    expect(kept).toMatchObject({ phase: 'cannot_reach', stops: [{ stationId: 'stn_far' }] });
    expect(kept.stops[0]?.reason).toMatch(/the stop you were given, still in range: fill up there\.$/);
  });

  it('is priced like any stop (Texas, 20.0¢ credited) and has no counterfactual: it is the only choice', () => {
    const [urgent] = urgentFor(newSession()).stops;
    expect(urgent).toMatchObject({
      state: 'TX',
      stateTax: 0.2,
      taxTreatment: 'ifta',
      netPrice: 3.6,
      effectivePrice: 3.4,
      counterfactual: null,
    });
  });
});

describe('what a sloshing gauge, GPS jitter and moving prices do to the advice (seeded)', () => {
  /** Drives `steps` one-mile breadcrumbs from `progress0`, replanning at each; returns the sessions. */
  function drive(options: {
    fuelPercent: (step: number) => number;
    stations: (step: number) => { station: Station; milesAlongRoute: number }[];
    steps: number;
    progress0: number;
    distanceMiles: number;
  }) {
    const random = seededRandom(26);
    let session = newSession();
    const updates: string[] = [];
    const sessions: GuidanceSession[] = [];
    for (let step = 0; step < options.steps; step++) {
      // GPS jitter of tens of metres around the truck's point.
      const position = {
        latitude: AMARILLO.latitude + (random() - 0.5) * 0.0006,
        longitude: AMARILLO.longitude + (random() - 0.5) * 0.0006,
        recordedAtMs: NOW + step * 60_000,
      };
      const fuel = {
        percent: options.fuelPercent(step),
        source: 'reported' as const,
        reportedAtMs: position.recordedAtMs,
      };
      const need = replanBeforeRouting(FLEET, session, snapshot({ position, fuel }), position.recordedAtMs);
      if (need.kind !== 'route_needed') throw new Error('expected the route to be needed');
      const corridor = options.stations(step).map((c) => ({ ...c, offRouteMiles: 0.2 }));
      const update = replanOnRoute(
        FLEET,
        session,
        need,
        {
          corridor,
          distanceMiles: options.distanceMiles,
          progressMiles: options.progress0 + step,
          program: NO_FUEL_PROGRAM,
          pricing: PRICING,
        },
        position.recordedAtMs,
      );
      for (const event of update.events)
        if (event.type === 'guidance.updated') updates.push(String(event.data.change));
      session = update.session;
      sessions.push(session);
    }
    return { updates, sessions };
  }

  it('keeps the stop shown through ±2 % of gauge noise and prices moving a few cents', () => {
    const random = seededRandom(7);
    const { updates, sessions } = drive({
      steps: 60,
      progress0: 0,
      distanceMiles: 600,
      // 40 % burning 1 mi / 6.5 mpg a step, ±2 points of noise.
      fuelPercent: (step) => 40 - (step / 6.5 / 150) * 100 + (random() - 0.5) * 4,
      // Two stations 20 miles apart whose prices move by up to 3 cents a step, each way.
      stations: () => [
        { station: station('stn_a', 3.5 + (random() - 0.5) * 0.06), milesAlongRoute: 150 },
        { station: station('stn_b', 3.49 + (random() - 0.5) * 0.06), milesAlongRoute: 170 },
      ],
    });
    const first = sessions[0]?.stops[0]?.stationId;
    expect(first).toBeDefined();
    expect(new Set(sessions.map((s) => s.stops[0]?.stationId))).toEqual(new Set([first]));
    expect(updates).toEqual(['created']);
  });

  it('does not flap between a stop and none as ±3 points slosh around the arrival margin', () => {
    const random = seededRandom(11);
    // 300 miles burn 46.2 gal; 15 % on arrival is 22.5 gal: 68.7 gal (45.8 %) is right on the margin.
    const { updates, sessions } = drive({
      steps: 60,
      progress0: 300,
      distanceMiles: 600,
      fuelPercent: (step) => 45.8 - (step / 6.5 / 150) * 100 + (random() - 0.5) * 6,
      stations: () => [
        { station: station('stn_a', 3.5), milesAlongRoute: 420 },
        { station: station('stn_b', 3.45), milesAlongRoute: 480 },
      ],
    });
    const phases = sessions.map((s) => s.phase);
    const changes = phases.filter((phase, i) => i > 0 && phase !== phases[i - 1]).length;
    // At most the first move from "no stop" to a stop, and nothing after it.
    expect(changes).toBeLessThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(2);
    expect(phases.at(-1)).toBe('stop_recommended');
  });
});

describe('what a recomputed session announces', () => {
  it('announces an approached stop once, and remembers only the newest approached stops', () => {
    const remembered = Array.from({ length: MAX_REMEMBERED_STOPS }, (_, i) => `gds_${i}`);
    const previous = newSession({ revision: 1, approachedStopIds: remembered });
    const near = stop('near', { milesAhead: 5 });
    const next = { ...previous, phase: 'approaching_stop' as const, stops: [near] };

    const first = announce(FLEET, previous, next);
    const again = announce(FLEET, first.session, { ...first.session, updatedAtMs: NOW + 60_000 });

    expect(first.events.map((e) => e.type)).toEqual(['guidance.updated', 'guidance.stop_approaching']);
    expect(first.session.approachedStopIds).toHaveLength(MAX_REMEMBERED_STOPS);
    expect(first.session.approachedStopIds.at(-1)).toBe('near');
    expect(first.session.approachedStopIds).not.toContain('gds_0');
    expect(again.events).toEqual([]);
  });
});

describe('the price basis of guidance stops', () => {
  // Near the New Mexico/Colorado line on I-25: NM $3.30 at the pump (21.0¢ tax: $3.09 after the
  // credit), CO $3.40 (33.0¢: $3.07). 40 % of 150 gal = 60 gal, 45 above the 15-gal reserve: 292
  // miles at 6.5 mpg, so both are in reach; 600 miles need a stop.
  const corridor = [
    { station: { ...station('stn_nm', 3.3), state: 'NM' }, milesAlongRoute: 120, offRouteMiles: 0.1 },
    { station: { ...station('stn_co', 3.4), state: 'CO' }, milesAlongRoute: 160, offRouteMiles: 0.1 },
  ];
  const plan = (treatment: 'ifta' | 'pump') => {
    const step = replanBeforeRouting(FLEET, newSession(), snapshot(), NOW);
    if (step.kind !== 'route_needed') throw new Error('expected the route to be needed');
    return replanOnRoute(
      FLEET,
      newSession(),
      step,
      {
        corridor,
        distanceMiles: 600,
        progressMiles: 0,
        program: NO_FUEL_PROGRAM,
        pricing: { ...PRICING, treatment },
      },
      NOW,
    ).session.stops;
  };

  it('sets state, tax, treatment, effective price and counterfactual on every stop, stops[0] cheapest after the credit', () => {
    // Act
    const [first] = plan('ifta');

    // Assess: the mean over both after the credit: ($3.09 + $3.07) / 2 = $3.08; at the pump: the same
    // (no discount).
    expect(first).toMatchObject({
      stationId: 'stn_co',
      state: 'CO',
      stateTax: 0.33,
      taxTreatment: 'ifta',
      netPrice: 3.4,
      effectivePrice: 3.07,
      counterfactual: { pumpPrice: 3.08, netPrice: 3.08, stationCount: 2 },
    });
    expect(first?.reason).toContain(
      'The tax credit decided this stop: $3.40 − $0.33 Colorado credit = $3.07 here, ' +
        'against $3.30 − $0.21 New Mexico credit = $3.09 at stn_nm, the pick without the credit.',
    );
  });

  it('under pump, the cheaper pump price is stops[0] and its effective price is its net price', () => {
    // Act
    const [first] = plan('pump');

    // Assess
    expect(first).toMatchObject({
      stationId: 'stn_nm',
      state: 'NM',
      stateTax: 0.21,
      taxTreatment: 'pump',
      effectivePrice: 3.3,
      counterfactual: { pumpPrice: 3.35, netPrice: 3.35, stationCount: 2 },
    });
    expect(first?.reason).not.toContain('credit');
  });
});
