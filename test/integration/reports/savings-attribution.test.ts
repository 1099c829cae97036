import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import type { RecommendedStop } from '#shared/fuelings/domain/recommendations.ts';
import { createFlaggedPurchaseReader } from '#shared/fuelings/store/flagged-purchases.ts';
import { type RecordFuelingsDeps, recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { purchaseCheckDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import { createFuelingRecordDeps, fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { createSavingsDayStore, savingsDayKey, shardOf } from '#shared/reports/store/savings-days.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * Attribution through the stores against DynamoDB Local: a stop counted once whichever path counts
 * it (withdrawn while due, followed, passed over by a fill elsewhere) and in whichever order they
 * arrive (live, or a day replayed with its cards late), and day elements written before the
 * counterfactual still read.
 */
const client = testDocumentClient();
const NOW = Date.parse('2026-11-21T18:00:00Z');
const clock = fixedClock(NOW);
const MIN = 60_000;
let table: string;
let infra: TestInfrastructure;
let station: Station;
let deps: RecordFuelingsDeps;

beforeAll(async () => {
  table = await createTestTable(client, 'savings-attribution');
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
  // A station in Oklahoma from the embedded catalog (OK diesel tax $0.20).
  station = index.nearby(35.47, -97.52, 100, 1)[0]?.station as Station;
});
afterAll(() => deleteTestTable(client, table));

const at = (ms: number) => new Date(ms).toISOString();

async function newTruck(fleetId: string) {
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `ATTR-${Math.random().toString(36).slice(2, 8)}`,
    tank_size_gallons: 300,
    estimated_mpg: 6.5,
  });
  return vehicle;
}

/** The stop the driver is heading to, shown on the ifta basis with its counterfactual. */
function shownStop(vehicleId: string, recommendedAtMs: number): RecommendedStop {
  return {
    vehicleId,
    guidanceId: newId('guidance', recommendedAtMs),
    tripId: null,
    stopId: newId('guidanceStop', recommendedAtMs),
    tripStopId: null,
    stationId: station.id,
    stationName: station.name,
    latitude: station.latitude,
    longitude: station.longitude,
    netPrice: 3.3,
    gallonsToBuy: 100,
    recommendedAtMs,
    sequence: 0,
    price: 3.5,
    state: 'OK',
    stateTax: 0.2,
    taxTreatment: 'ifta',
    effectivePrice: 3.1,
    counterfactual: { pumpPrice: 3.4, netPrice: 3.25, stationCount: 8 },
    withdrawnAtMs: null,
    due: false,
    followedFuelingId: null,
  };
}

/** A card 30 miles north of the stop: $3.55 posted, $0.15 off, $3.40 net, $3.20 effective in OK. */
const elsewhere = (vehicleId: string, fueledAtMs: number) => ({
  vehicle_id: vehicleId,
  fueled_at: at(fueledAtMs),
  gallons: 100,
  price_usd_per_gallon: 3.55,
  discount_usd_per_gallon: 0.15,
  latitude: station.latitude + 0.43,
  longitude: station.longitude,
});

/** A card at the stop: $3.50 posted, $0.20 off, $3.30 net, $3.10 effective. */
const atStop = (vehicleId: string, fueledAtMs: number) => ({
  vehicle_id: vehicleId,
  fueled_at: at(fueledAtMs),
  gallons: 100,
  price_usd_per_gallon: 3.5,
  discount_usd_per_gallon: 0.2,
  station_id: station.id,
});

function reportDeps() {
  return {
    vehicles: vehicleStore(infra),
    savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
    flagged: createFlaggedPurchaseReader(infra.client, infra.config.tableName),
    fuelPrograms: { get: async () => NO_FUEL_PROGRAM },
    now: clock.now,
  };
}

const DAY = { from: '2026-11-21', to: '2026-11-21' };

describe('a recommended stop is counted once, whichever path counts it', () => {
  it('a fill elsewhere while it stood counts it, its withdrawal does not again, a later fill there follows it', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations, fuelings } = fuelingStores(infra);
    const stop = shownStop(truck.id, NOW - 300 * MIN);
    await recommendations.recommended(fleetId, stop);

    const first = await recordFuelings(deps, fleetId, [elsewhere(truck.id, NOW - 240 * MIN)]);
    const firstId = (first.results[0] as { id: string }).id;
    const record = await recommendations.get(fleetId, truck.id, stop.stopId);
    expect(record).toMatchObject({ countedDay: '2026-11-21', followedFuelingId: null });
    const fill = (await fuelings.list(fleetId, {}, 5)).data.find((f) => f.id === firstId);
    // Judged against the stop passed over: card (3.40 − 3.25) × 100 = $15, routing (3.25 − 3.20)
    // × 100 = $5, missed (3.20 − 3.10) × 100 = $10.
    expect(fill).toMatchObject({
      state: 'OK',
      stateTax: 0.2,
      taxTreatment: 'ifta',
      effectivePrice: 3.2,
      counterfactual: { source: 'passed_over_recommendation', pumpPrice: 3.4, netPrice: 3.25 },
      cardSavingsUsd: 15,
      routingSavingsUsd: 5,
      missedSavingsUsd: 10,
      passedOverStopId: stop.stopId,
    });
    let report = await savingsReport(reportDeps(), fleetId, DAY);
    expect(report.totals).toMatchObject({ recommended_stops: 1, followed_stops: 0, missed_savings_usd: 10 });

    // The truck passes the stop within the approach radius: already counted, nothing more.
    await recommendations.withdrawn(fleetId, {
      vehicleId: truck.id,
      stopId: stop.stopId,
      withdrawnAtMs: NOW - 200 * MIN,
      due: true,
    });
    report = await savingsReport(reportDeps(), fleetId, DAY);
    expect(report.totals).toMatchObject({ recommended_stops: 1, followed_stops: 0 });

    // It comes back and fuels at the stop within the match window: followed, not recommended again.
    await recordFuelings(deps, fleetId, [atStop(truck.id, NOW - 150 * MIN)]);
    report = await savingsReport(reportDeps(), fleetId, DAY);
    expect(report.totals).toMatchObject({ recommended_stops: 1, followed_stops: 1, fuelings: 2 });
    expect(report.adherence_rate).toBe(1);
  });

  it('a second fill elsewhere does not count the stop twice', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    await recommendations.recommended(fleetId, shownStop(truck.id, NOW - 300 * MIN));
    await recordFuelings(deps, fleetId, [elsewhere(truck.id, NOW - 240 * MIN)]);
    await recordFuelings(deps, fleetId, [{ ...elsewhere(truck.id, NOW - 230 * MIN), gallons: 20 }]);
    const report = await savingsReport(reportDeps(), fleetId, DAY);
    expect(report.totals).toMatchObject({ fuelings: 2, recommended_stops: 1, followed_stops: 0 });
  });

  it('a day replayed with its card late gives the live day’s report', async () => {
    const live = newId('fleet');
    const replayed = newId('fleet');
    const liveTruck = await newTruck(live);
    const replayedTruck = await newTruck(replayed);
    const { recommendations } = fuelingStores(infra);
    const liveStop = shownStop(liveTruck.id, NOW - 300 * MIN);
    const replayedStop = shownStop(replayedTruck.id, NOW - 300 * MIN);
    await recommendations.recommended(live, liveStop);
    await recommendations.recommended(replayed, replayedStop);
    const withdrawal = (vehicleId: string, stopId: string) => ({
      vehicleId,
      stopId,
      withdrawnAtMs: NOW - 200 * MIN,
      due: true,
    });

    // Live: the card arrives as the truck fuels, then the plan drops the stop as it passes.
    await recordFuelings(deps, live, [elsewhere(liveTruck.id, NOW - 240 * MIN)]);
    await recommendations.withdrawn(live, withdrawal(liveTruck.id, liveStop.stopId));
    // Replayed: the withdrawal comes first, the card hours later.
    await recommendations.withdrawn(replayed, withdrawal(replayedTruck.id, replayedStop.stopId));
    await recordFuelings(deps, replayed, [elsewhere(replayedTruck.id, NOW - 240 * MIN)]);

    const liveReport = await savingsReport(reportDeps(), live, DAY);
    const replayedReport = await savingsReport(reportDeps(), replayed, DAY);
    expect(replayedReport.totals).toEqual(liveReport.totals);
    expect(liveReport.totals).toMatchObject({
      recommended_stops: 1,
      followed_stops: 0,
      card_savings_usd: 15,
      routing_savings_usd: 5,
      missed_savings_usd: 10,
    });
  });

  it('a plan dropped far ahead after a fill elsewhere still counts the stop once (the fill did)', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    const stop = shownStop(truck.id, NOW - 300 * MIN);
    await recommendations.recommended(fleetId, stop);
    await recordFuelings(deps, fleetId, [elsewhere(truck.id, NOW - 240 * MIN)]);
    // Full tank: the plan no longer needs the stop, 55 miles ahead (not due).
    await recommendations.withdrawn(fleetId, {
      vehicleId: truck.id,
      stopId: stop.stopId,
      withdrawnAtMs: NOW - 235 * MIN,
      due: false,
    });
    const report = await savingsReport(reportDeps(), fleetId, DAY);
    expect(report.totals).toMatchObject({ recommended_stops: 1, followed_stops: 0 });
    expect(report.adherence_rate).toBe(0);
  });
});

describe('day elements written before the counterfactual', () => {
  it('a period straddling them: the old fill costs what it cost, claims no saving and is not in the per-gallon', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    // The old element: n, g, pg, s, b, m, r, f (1 fill, 100 gal, $340 spent, $355 benchmark, 1 stop due and followed).
    const element = `${truck.id}|oldcause01|1,100000,100000,34000,35500,,1,1|${truck.externalRef}`;
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: savingsDayKey(fleetId, '2026-11-20', shardOf(truck.id)),
        UpdateExpression: 'ADD c :c',
        ExpressionAttributeValues: { ':c': new Set([element]) },
      }),
    );
    const old = await savingsReport(reportDeps(), fleetId, { from: '2026-11-20', to: '2026-11-20' });
    expect(old.totals).toMatchObject({
      fuelings: 1,
      gallons: 100,
      spend_usd: 340,
      // Priced at the pump then: nothing credited, valued at its own price, no saving claimed.
      effective_spend_usd: 340,
      counterfactual_spend_usd: 340,
      card_savings_usd: 0,
      savings_usd: 0,
      savings_usd_per_gallon: null,
      recommended_stops: 1,
      followed_stops: 1,
      fuel_tax_treatment: null,
    });
    expect(old.vehicles[0]?.external_ref).toBe(truck.externalRef);

    // The next day, a fill at a stop shown with its counterfactual: $330 cash, $20 credited,
    // $310 effective; counterfactual net 3.25 × 100 = $325: saving $15; card (3.40 − 3.25) × 100 = $15.
    const { recommendations } = fuelingStores(infra);
    await recommendations.recommended(fleetId, shownStop(truck.id, NOW - 300 * MIN));
    await recordFuelings(deps, fleetId, [atStop(truck.id, NOW - 240 * MIN)]);
    const both = await savingsReport(reportDeps(), fleetId, { from: '2026-11-20', to: '2026-11-21' });
    expect(both.totals).toMatchObject({
      fuelings: 2,
      gallons: 200,
      spend_usd: 670,
      effective_spend_usd: 650,
      counterfactual_spend_usd: 665,
      card_savings_usd: 15,
      routing_savings_usd: 15,
      savings_usd: 15,
      // Over the 100 gallons priced against a counterfactual, not the 200 bought.
      savings_usd_per_gallon: 0.15,
      fuel_tax_treatment: 'ifta',
    });
  });
});

describe('a sandbox twin’s report', () => {
  it('defaults to the simulation’s clock when an advance ran it ahead, and judges from against it', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    await recommendations.recommended(fleetId, shownStop(truck.id, NOW - 300 * MIN));
    await recordFuelings(deps, fleetId, [elsewhere(truck.id, NOW - 240 * MIN)]);
    const simulatedNowMs = NOW + 3 * 86_400_000;
    const simulations = {
      get: async (id: string) => (id === fleetId ? ({ simulatedNowMs } as never) : null),
    };
    const sandbox = await savingsReport({ ...reportDeps(), simulations }, fleetId, {});
    expect(sandbox.period.to).toBe('2026-11-25T00:00:00.000000Z');
    expect(sandbox.totals.fuelings).toBe(1);
    // A from on the simulated day is not "after today" on the simulation's clock.
    const ahead = await savingsReport({ ...reportDeps(), simulations }, fleetId, { from: '2026-11-24' });
    expect(ahead.period.from).toBe('2026-11-24T00:00:00.000000Z');
    await expect(savingsReport(reportDeps(), fleetId, { from: '2026-11-24' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});
