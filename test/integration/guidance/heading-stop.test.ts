import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { recommendationChanges } from '#shared/fuelings/domain/recommendations.ts';
import { createFlaggedPurchaseReader } from '#shared/fuelings/store/flagged-purchases.ts';
import { type RecordFuelingsDeps, recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { purchaseCheckDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import { createFuelingRecordDeps, fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { type GuidanceSession, type GuidanceStop, startSession } from '#shared/guidance/domain/session.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { createSavingsDayStore } from '#shared/reports/store/savings-days.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * A fill made elsewhere is judged against the stop the truck was heading to at the fill, for its
 * money (counterfactual, missed saving) and for adherence alike: through the real recordFill (POST
 * /v1/fuelings' use case) against DynamoDB Local, with the recommended-stop records written the way
 * the guidance worker's outbox writes them (recommendationChanges of the session's states).
 *
 * Every station is an Oklahoma one (diesel tax $0.20, credited under ifta, the default).
 */
const client = testDocumentClient();
const NOW = Date.parse('2026-11-21T20:00:00Z');
const clock = fixedClock(NOW);
const MIN = 60_000;
const DAY = { from: '2026-11-21', to: '2026-11-21' };
let table: string;
let infra: TestInfrastructure;
let deps: RecordFuelingsDeps;
let stationA: Station;
let stationB: Station;

beforeAll(async () => {
  table = await createTestTable(client, 'heading-stop');
  infra = testInfrastructure({ tableName: table, clock });
  deps = {
    ...createFuelingRecordDeps(infra, { record: async () => ({}) as never }),
    vehicles: vehicleStore(infra),
    catalog: stationSources(infra).catalog,
    fuelTaxes: stationSources(infra).fuelTaxes,
    ...purchaseCheckDeps(infra),
    now: clock.now,
  };
  const index = await stationSources(infra).catalog.current();
  const near = index.nearby(35.47, -97.52, 100, 20).map((found) => found.station);
  stationA = near[0] as Station;
  // Another station at least 5 miles from the first, so a fill at one is not at the other.
  stationB = near.find(
    (s) => Math.abs(s.latitude - stationA.latitude) + Math.abs(s.longitude - stationA.longitude) > 0.1,
  ) as Station;
  expect([stationA.state, stationB.state]).toEqual(['OK', 'OK']);
});
afterAll(() => deleteTestTable(client, table));

const at = (ms: number) => new Date(ms).toISOString();

async function newTruck(fleetId: string) {
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `HEAD-${Math.random().toString(36).slice(2, 8)}`,
    tank_size_gallons: 300,
    estimated_mpg: 6.5,
  });
  return vehicle;
}

interface Shown {
  station: Station;
  milesAhead: number;
  price: number;
  discount: number;
  counterfactual: { pumpPrice: number; netPrice: number };
}

/** A guidance stop shown on the ifta basis (OK tax $0.20), with its counterfactual. */
function guidanceStop(session: GuidanceSession, shown: Shown, recommendedAtMs: number): GuidanceStop {
  const netPrice = Math.round((shown.price - shown.discount) * 1000) / 1000;
  return {
    id: newId('guidanceStop', session.createdAtMs),
    stationId: shown.station.id,
    name: shown.station.name,
    chain: shown.station.chain,
    latitude: shown.station.latitude,
    longitude: shown.station.longitude,
    address: shown.station.address,
    milesAhead: shown.milesAhead,
    detourMiles: 0.3,
    gallonsToBuy: 100,
    price: shown.price,
    discount: shown.discount,
    netPrice,
    priceIsStale: false,
    reason: 'cheapest in reach',
    recommendedAtMs,
    acknowledgedAtMs: null,
    state: 'OK',
    stateTax: 0.2,
    taxTreatment: 'ifta',
    effectivePrice: Math.round((netPrice - 0.2) * 1000) / 1000,
    counterfactual: { ...shown.counterfactual, stationCount: 9 },
  };
}

function sessionOf(vehicleId: string, startedAtMs: number): GuidanceSession {
  return startSession({
    id: newId('guidance', startedAtMs),
    vehicleId,
    destination: { latitude: 39.74, longitude: -104.99, name: 'Denver' },
    minArrivalFuelPercent: 15,
    nowMs: startedAtMs,
  });
}

/** What the worker's outbox does with a change of the session (tracking-outbox.ts). */
async function applyChange(
  fleetId: string,
  before: GuidanceSession | null,
  after: GuidanceSession,
  atMs: number,
) {
  const { recommendations } = fuelingStores(infra);
  const changes = recommendationChanges(before, after, atMs);
  for (const change of changes) {
    if (change.kind === 'recommended') await recommendations.recommended(fleetId, change.stop);
  }
  for (const change of changes) {
    if (change.kind === 'withdrawn') await recommendations.withdrawn(fleetId, change);
  }
}

/** A card: at a station (by id), or at a position 30 miles north of stop A. */
function card(
  vehicleId: string,
  fueledAtMs: number,
  where: Station | 'elsewhere',
  price: number,
  discount: number,
  gallons = 100,
) {
  return {
    vehicle_id: vehicleId,
    fueled_at: at(fueledAtMs),
    gallons,
    price_usd_per_gallon: price,
    discount_usd_per_gallon: discount,
    ...(where === 'elsewhere'
      ? { latitude: stationA.latitude + 0.43, longitude: stationA.longitude }
      : { station_id: where.id }),
  };
}

async function post(fleetId: string, fill: ReturnType<typeof card>): Promise<Fueling> {
  const result = await recordFuelings(deps, fleetId, [fill]);
  expect(result.results[0]).toMatchObject({ status: 'accepted' });
  const id = (result.results[0] as { id: string }).id;
  const listed = await fuelingStores(infra).fuelings.list(fleetId, {}, 50);
  return listed.data.find((f) => f.id === id) as Fueling;
}

const report = (fleetId: string) =>
  savingsReport(
    {
      vehicles: vehicleStore(infra),
      savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
      flagged: createFlaggedPurchaseReader(infra.client, infra.config.tableName),
      fuelPrograms: { get: async () => NO_FUEL_PROGRAM },
      now: clock.now,
    },
    fleetId,
    DAY,
  );

describe('the five-truck story, through recordFill', () => {
  // The stop: $3.50 posted, $0.20 off, $3.30 net, $3.10 effective; its counterfactual $3.40
  // without the card, $3.25 with it. Four trucks fuel there; one 30 miles before it, $3.55
  // posted, $0.15 off, $3.40 net, $3.20 effective.
  const STOP = {
    milesAhead: 120,
    price: 3.5,
    discount: 0.2,
    counterfactual: { pumpPrice: 3.4, netPrice: 3.25 },
  };

  it('followers show card $15 and routing $15; the early filler card $15, routing $5, missed $10 and an unfollowed stop', async () => {
    const fleetId = newId('fleet');
    const shownAt = NOW - 8 * 60 * MIN;
    const fills: Fueling[] = [];
    for (let truck = 0; truck < 5; truck++) {
      const vehicle = await newTruck(fleetId);
      const started = sessionOf(vehicle.id, shownAt);
      const stop = guidanceStop(started, { ...STOP, station: stationA }, shownAt);
      const shown = { ...started, stops: [stop] };
      await applyChange(fleetId, null, shown, shownAt);
      const follower = truck < 4;
      fills.push(
        await post(
          fleetId,
          follower
            ? card(vehicle.id, shownAt + 120 * MIN, stationA, 3.5, 0.2)
            : card(vehicle.id, shownAt + 90 * MIN, 'elsewhere', 3.55, 0.15),
        ),
      );
      // The truck passes the stop (or leaves it): withdrawn while due.
      await applyChange(fleetId, shown, { ...shown, stops: [] }, shownAt + 130 * MIN);
    }
    for (const follower of fills.slice(0, 4)) {
      expect(follower).toMatchObject({
        effectivePrice: 3.1,
        counterfactual: { source: 'followed_recommendation', pumpPrice: 3.4, netPrice: 3.25 },
        cardSavingsUsd: 15,
        routingSavingsUsd: 15,
        missedSavingsUsd: 0,
      });
    }
    expect(fills[4]).toMatchObject({
      effectivePrice: 3.2,
      counterfactual: { source: 'passed_over_recommendation', pumpPrice: 3.4, netPrice: 3.25 },
      cardSavingsUsd: 15,
      routingSavingsUsd: 5,
      missedSavingsUsd: 10,
    });
    const published = await report(fleetId);
    expect(published.totals).toMatchObject({
      fuelings: 5,
      card_savings_usd: 75,
      routing_savings_usd: 65,
      // The saving is where the fleet bought (routing); the card's $75 is beside it, not in it.
      savings_usd: 65,
      missed_savings_usd: 10,
      recommended_stops: 5,
      followed_stops: 4,
    });
    expect(published.totals.fuelings_without_recommendation.total).toBe(0);
    expect(published.adherence_rate).toBe(0.8);
    const early = published.vehicles.find((row) => row.vehicle_id === fills[4]?.vehicleId);
    expect(early).toMatchObject({ recommended_stops: 1, followed_stops: 0, adherence_rate: 0 });
  });
});

describe('two stops: a fill elsewhere is judged against the one the truck was heading to', () => {
  // A first, a top-up: $3.60 posted, $0.20 off, $3.20 effective; counterfactual $3.45 / $3.30.
  // B later and cheaper: $3.40 posted, $0.20 off, $3.00 effective; counterfactual $3.65 / $3.50.
  const A = { milesAhead: 60, price: 3.6, discount: 0.2, counterfactual: { pumpPrice: 3.45, netPrice: 3.3 } };
  const B = {
    milesAhead: 400,
    price: 3.4,
    discount: 0.2,
    counterfactual: { pumpPrice: 3.65, netPrice: 3.5 },
  };

  async function twoStops(fleetId: string, vehicleId: string, shownAt: number) {
    const started = sessionOf(vehicleId, shownAt);
    const a = guidanceStop(started, { ...A, station: stationA }, shownAt);
    const b = guidanceStop(started, { ...B, station: stationB }, shownAt);
    const shown = { ...started, stops: [a, b] };
    return { shown, a, b, apply: () => applyChange(fleetId, null, shown, shownAt) };
  }

  it('while both stand: against A, the first (not B, the cheaper), and a follower of A shows more routing saving', async () => {
    const fleetId = newId('fleet');
    const shownAt = NOW - 8 * 60 * MIN;
    const ignorer = await newTruck(fleetId);
    const follower = await newTruck(fleetId);
    const ignored = await twoStops(fleetId, ignorer.id, shownAt);
    const followed = await twoStops(fleetId, follower.id, shownAt);
    await ignored.apply();
    await followed.apply();

    // $3.60 posted, $0.15 off: $3.45 net, $3.25 effective × 100 gallons.
    const elsewhere = await post(fleetId, card(ignorer.id, shownAt + 60 * MIN, 'elsewhere', 3.6, 0.15));
    expect(elsewhere).toMatchObject({
      effectivePrice: 3.25,
      passedOverStopId: ignored.a.id,
      counterfactual: { source: 'passed_over_recommendation', pumpPrice: 3.45, netPrice: 3.3 },
      cardSavingsUsd: 15,
      // (3.30 − 3.25) × 100; missed (3.25 − 3.20) × 100.
      routingSavingsUsd: 5,
      missedSavingsUsd: 5,
    });
    const atA = await post(fleetId, card(follower.id, shownAt + 70 * MIN, stationA, 3.6, 0.2));
    expect(atA).toMatchObject({ effectivePrice: 3.2, routingSavingsUsd: 10, cardSavingsUsd: 15 });
    expect(atA.routingSavingsUsd as number).toBeGreaterThan(elsewhere.routingSavingsUsd as number);

    const { recommendations } = fuelingStores(infra);
    expect(await recommendations.get(fleetId, ignorer.id, ignored.a.id)).toMatchObject({
      countedDay: '2026-11-21',
    });
    expect(await recommendations.get(fleetId, ignorer.id, ignored.b.id)).toMatchObject({ countedDay: null });
    const row = (await report(fleetId)).vehicles.find((v) => v.vehicle_id === ignorer.id);
    expect(row).toMatchObject({ recommended_stops: 1, followed_stops: 0, missed_savings_usd: 5 });
  });

  /**
   * The day of a truck that follows A, then fuels elsewhere before B: the session's changes (shown
   * A and B; A left the plan as the truck left it, B first from then) and its two cards, in the
   * order given.
   */
  async function followThenElsewhere(order: 'live' | 'guidance first, cards reversed') {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const shownAt = NOW - 10 * 60 * MIN;
    const { shown, a, b } = await twoStops(fleetId, truck.id, shownAt);
    const leftA = shownAt + 100 * MIN;
    const afterA = { ...shown, stops: [{ ...b, milesAhead: 340 }] };
    const followA = card(truck.id, shownAt + 90 * MIN, stationA, 3.6, 0.2);
    // Three hours past A, before B: $3.55 posted, $0.10 off, $3.45 net, $3.25 effective.
    const beforeB = card(truck.id, leftA + 180 * MIN, 'elsewhere', 3.55, 0.1, 80);
    const posted: Record<string, Fueling> = {};
    if (order === 'live') {
      await applyChange(fleetId, null, shown, shownAt);
      posted.a = await post(fleetId, followA);
      await applyChange(fleetId, shown, afterA, leftA);
      posted.elsewhere = await post(fleetId, beforeB);
    } else {
      await applyChange(fleetId, null, shown, shownAt);
      await applyChange(fleetId, shown, afterA, leftA);
      posted.elsewhere = await post(fleetId, beforeB);
      posted.a = await post(fleetId, followA);
    }
    return { fleetId, truck, a, b, leftA, posted };
  }

  it('after following A, a fill elsewhere before B is counted unfollowed against B, with B’s counterfactual', async () => {
    const { fleetId, truck, b, leftA, posted } = await followThenElsewhere('live');
    const record = await fuelingStores(infra).recommendations.get(fleetId, truck.id, b.id);
    // B became the stop the truck was heading to as A left the plan.
    expect(record).toMatchObject({ sequence: 1, headingSinceMs: leftA, countedDay: '2026-11-21' });
    expect(posted.a).toMatchObject({ counterfactual: { source: 'followed_recommendation' } });
    expect(posted.elsewhere).toMatchObject({
      passedOverStopId: b.id,
      counterfactual: { source: 'passed_over_recommendation', pumpPrice: 3.65, netPrice: 3.5 },
      // card (3.65 − 3.50) × 80 = $12; routing (3.50 − 3.25) × 80 = $20; missed (3.25 − 3.00) × 80 = $20.
      cardSavingsUsd: 12,
      routingSavingsUsd: 20,
      missedSavingsUsd: 20,
      unmatchedReason: 'not_at_recommended_station',
    });
    const published = await report(fleetId);
    expect(published.totals).toMatchObject({
      fuelings: 2,
      recommended_stops: 2,
      followed_stops: 1,
      missed_savings_usd: 20,
    });
    expect(published.adherence_rate).toBe(0.5);
  });

  it('the same day replayed out of order (guidance first, the cards reversed) gives the same report', async () => {
    const live = await followThenElsewhere('live');
    const replayed = await followThenElsewhere('guidance first, cards reversed');
    const [liveReport, replayedReport] = [await report(live.fleetId), await report(replayed.fleetId)];
    const { vehicles: _l, ...liveTotals } = liveReport;
    const { vehicles: _r, ...replayedTotals } = replayedReport;
    expect(replayedTotals.totals).toEqual(liveTotals.totals);
    expect(replayedTotals.adherence_rate).toBe(0.5);
    expect(replayed.posted.elsewhere).toMatchObject({
      passedOverStopId: replayed.b.id,
      routingSavingsUsd: 20,
      missedSavingsUsd: 20,
    });
  });

  it('a fill while only B stood, before it became the stop heading to, is judged against none: no_stop_due', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const shownAt = NOW - 10 * 60 * MIN;
    const started = sessionOf(truck.id, shownAt);
    const b = guidanceStop(started, { ...B, station: stationB }, shownAt);
    const a = guidanceStop(started, { ...A, station: stationA }, shownAt);
    // The record knows A, shown first and dropped far ahead (not due: a plan that changed), and B,
    // shown second, never recorded as the stop heading to (written before that was kept, or its
    // change not carried out yet): only a stop further on stood at the fill.
    const shown = { ...started, stops: [a, b] };
    await applyChange(fleetId, null, shown, shownAt);
    await fuelingStores(infra).recommendations.withdrawn(fleetId, {
      vehicleId: truck.id,
      stopId: a.id,
      withdrawnAtMs: shownAt + 10 * MIN,
      due: false,
    });
    // More than the 60-minute grace after A left the plan.
    const fill = await post(fleetId, card(truck.id, shownAt + 80 * MIN, 'elsewhere', 3.6, 0.15));
    expect(fill).toMatchObject({
      passedOverStopId: null,
      counterfactual: { source: 'own_price' },
      routingSavingsUsd: 0,
      missedSavingsUsd: 0,
      unmatchedReason: 'no_stop_due',
    });
    const published = await report(fleetId);
    expect(published.totals).toMatchObject({ recommended_stops: 0, missed_savings_usd: 0 });
    expect(published.totals.fuelings_without_recommendation).toMatchObject({
      total: 1,
      by_reason: { no_stop_due: 1 },
    });
  });
});

describe('the record keeps when a stop became the one heading to', () => {
  it('the earliest, whichever change arrives first', async () => {
    const fleetId = newId('fleet');
    const vehicleId = (await newTruck(fleetId)).id;
    const shownAt = NOW - 5 * 60 * MIN;
    const started = sessionOf(vehicleId, shownAt);
    const first = guidanceStop(
      started,
      {
        milesAhead: 50,
        price: 3.5,
        discount: 0.2,
        counterfactual: { pumpPrice: 3.4, netPrice: 3.3 },
        station: stationA,
      },
      shownAt,
    );
    const second = guidanceStop(
      started,
      {
        milesAhead: 300,
        price: 3.4,
        discount: 0.2,
        counterfactual: { pumpPrice: 3.6, netPrice: 3.5 },
        station: stationB,
      },
      shownAt,
    );
    const shown = { ...started, stops: [first, second] };
    const { recommendations } = fuelingStores(infra);
    await applyChange(fleetId, null, shown, shownAt);
    expect(await recommendations.get(fleetId, vehicleId, second.id)).not.toHaveProperty('headingSinceMs');
    // Later first: kept; an earlier one replayed after it lowers it; a later one again does not.
    await applyChange(fleetId, shown, { ...shown, stops: [second] }, shownAt + 90 * MIN);
    await applyChange(fleetId, shown, { ...shown, stops: [second] }, shownAt + 60 * MIN);
    await applyChange(fleetId, shown, { ...shown, stops: [second] }, shownAt + 120 * MIN);
    expect(await recommendations.get(fleetId, vehicleId, second.id)).toMatchObject({
      headingSinceMs: shownAt + 60 * MIN,
      recommendedAtMs: shownAt,
    });
  });
});
