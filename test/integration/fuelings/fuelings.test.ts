import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import type { RecommendedStop } from '#shared/fuelings/domain/recommendations.ts';
import { createFlaggedPurchaseReader } from '#shared/fuelings/store/flagged-purchases.ts';
import { recordFill } from '#shared/fuelings/usecases/fueling-records.ts';
import { listFuelings, type RecordFuelingsDeps, recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { purchaseCheckDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import {
  createFuelingRecordDeps,
  detectedFuelings,
  fuelingStores,
} from '#shared/fuelings/wiring/fuelings.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock, formatTimestamp } from '#shared/kernel/time.ts';
import { createSavingsDayStore } from '#shared/reports/store/savings-days.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { VehicleTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { carryOut } from '#shared/tracking/usecases/tracking-outbox.ts';
import { createVehicle, setVehicleStatus } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * Fuelings and the savings report through the composition root against DynamoDB Local: card
 * references recorded once (concurrent batches included), reported + detected fills merged in
 * either order, a reported fill matched to a recommended stop, and the report over a seeded month.
 */
const client = testDocumentClient();
const NOW = Date.parse('2026-11-21T13:00:00Z');
const clock = fixedClock(NOW);
const MIN = 60_000;
let table: string;
let infra: TestInfrastructure;
let station: Station;
let events: { type: string; data: Record<string, unknown>; dedupeKey?: string | undefined }[];
let deps: RecordFuelingsDeps;

beforeAll(async () => {
  table = await createTestTable(client, 'fuelings');
  infra = testInfrastructure({ tableName: table, clock });
  events = [];
  const recorder = {
    record: async (
      _fleetId: string,
      type: string,
      data: Record<string, unknown>,
      options?: { dedupeKey?: string },
    ) => {
      events.push({ type, data, dedupeKey: options?.dedupeKey });
      return {} as never;
    },
  };
  deps = {
    ...createFuelingRecordDeps(infra, recorder),
    vehicles: vehicleStore(infra),
    catalog: stationSources(infra).catalog,
    fuelTaxes: stationSources(infra).fuelTaxes,
    ...purchaseCheckDeps(infra),
    now: clock.now,
  };
  const index = await stationSources(infra).catalog.current();
  // A station in Oklahoma from the embedded catalog: real ids, real prices.
  station = index.nearby(35.47, -97.52, 100, 1)[0]?.station as Station;
});
afterAll(() => deleteTestTable(client, table));

async function newTruck(fleetId: string, ref = `FUEL-${Math.random().toString(36).slice(2, 8)}`) {
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: ref,
    tank_size_gallons: 300,
    estimated_mpg: 6.5,
  });
  return vehicle;
}

const at = (ms: number) => new Date(ms).toISOString();

function detected(vehicleId: string, fueledAtMs: number, overrides: Partial<Fueling> = {}): Fueling {
  return {
    id: newId('fueling', fueledAtMs - 10 * MIN),
    vehicleId,
    source: 'detected',
    gallons: 118,
    fueledAt: formatTimestamp(fueledAtMs),
    latitude: station.latitude + 0.001,
    longitude: station.longitude,
    fuelLevelBeforePercent: 20,
    fuelLevelAfterPercent: 60,
    guidanceId: null,
    stopId: null,
    stationId: null,
    createdAt: formatTimestamp(NOW),
    netPrice: null,
    ...overrides,
  };
}

function recommended(
  vehicleId: string,
  recommendedAtMs: number,
  overrides: Partial<RecommendedStop> = {},
): RecommendedStop {
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
    netPrice: 3.41,
    gallonsToBuy: 120,
    recommendedAtMs,
    withdrawnAtMs: null,
    due: false,
    followedFuelingId: null,
    ...overrides,
  };
}

describe('POST /v1/fuelings use case', () => {
  it('judges each item alone and answers a repeated card reference with the first id', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const parked = await newTruck(fleetId);
    await setVehicleStatus({ vehicles: vehicleStore(infra), clock }, fleetId, parked.id, 'inactive');
    const item = {
      vehicle_id: truck.id,
      fueled_at: at(NOW - 120 * MIN),
      gallons: 100,
      price_usd_per_gallon: 3.6,
      discount_usd_per_gallon: 0.15,
      station_id: station.id,
      card_transaction_ref: 'CARD-1',
    };
    const result = await recordFuelings(deps, fleetId, [
      item,
      { ...item, gallons: -1, card_transaction_ref: 'CARD-2' },
      { ...item, vehicle_id: newId('vehicle'), card_transaction_ref: 'CARD-3' },
      { ...item, vehicle_id: parked.id, card_transaction_ref: 'CARD-4' },
      { ...item, fueled_at: at(NOW - 100 * MIN) },
      { external_ref: truck.externalRef, fueled_at: at(NOW - 30 * MIN), gallons: 50, total_usd: 180 },
    ]);
    expect(result).toMatchObject({ accepted: 2, rejected: 3, duplicates: 1 });
    const first = result.results[0] as { id: string };
    expect(result.results[1]).toMatchObject({
      status: 'rejected',
      code: 'validation_failed',
      errors: [expect.objectContaining({ field: 'gallons' })],
    });
    expect(result.results[2]).toMatchObject({ status: 'rejected', code: 'unknown_vehicle' });
    expect(result.results[3]).toMatchObject({ status: 'rejected', code: 'vehicle_inactive' });
    expect(result.results[4]).toEqual({ index: 4, status: 'duplicate', id: first.id });

    const page = await listFuelings(
      { vehicles: vehicleStore(infra), fuelings: fuelingStores(infra).fuelings },
      fleetId,
      { limit: 25 },
    );
    expect(page.data.map((f) => f.id)).toEqual([
      result.results[5] && (result.results[5] as { id: string }).id,
      first.id,
    ]);
    expect(page.data[1]).toMatchObject({
      netPrice: 3.45,
      station: { id: station.id },
      cardTransactionRef: 'CARD-1',
    });
    expect(page.data[0]).toMatchObject({ netPrice: 3.6, totalUsd: 180 });
  });

  it('records a card reference once when batches race', async () => {
    const fleetId = newId('fleet');
    const trucks = await Promise.all([newTruck(fleetId), newTruck(fleetId)]);
    const batch = (vehicleId: string) =>
      Array.from({ length: 5 }, (_, i) => ({
        vehicle_id: vehicleId,
        fueled_at: at(NOW - (300 - i) * MIN),
        gallons: 90,
        price_usd_per_gallon: 3.5,
        card_transaction_ref: `RACE-${i}`,
      }));
    // The same references sent for two trucks at once: each reference lands on one record only.
    const [a, b, c] = await Promise.all([
      recordFuelings(deps, fleetId, batch(trucks[0].id)),
      recordFuelings(deps, fleetId, batch(trucks[1].id)),
      recordFuelings(deps, fleetId, batch(trucks[0].id)),
    ]);
    expect(a.accepted + b.accepted + c.accepted).toBe(5);
    expect(a.duplicates + b.duplicates + c.duplicates).toBe(10);
    for (let i = 0; i < 5; i++) {
      const ids = new Set([a, b, c].map((r) => (r.results[i] as { id: string }).id));
      expect(ids.size).toBe(1);
    }
    const page = await fuelingStores(infra).fuelings.list(fleetId, {}, 100);
    expect(page.data).toHaveLength(5);
  });
});

describe('a reported and a detected fill of the same purchase', () => {
  const reportedItem = (vehicleId: string, fueledAtMs: number, ref: string) => ({
    vehicle_id: vehicleId,
    fueled_at: at(fueledAtMs),
    gallons: 120,
    price_usd_per_gallon: 3.6,
    latitude: station.latitude,
    longitude: station.longitude,
    card_transaction_ref: ref,
  });

  it('detection first, then the card: one fueling, linked both ways, counted once', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const fill = detected(truck.id, NOW - 180 * MIN, { externalRef: truck.externalRef });
    await detectedFuelings(infra).recordDetected(fleetId, fill);
    const result = await recordFuelings(deps, fleetId, [reportedItem(truck.id, NOW - 150 * MIN, 'MERGE-A')]);
    const reportedId = (result.results[0] as { id: string }).id;

    const store = fuelingStores(infra).fuelings;
    const shown = await store.list(fleetId, {}, 25);
    expect(shown.data).toHaveLength(1);
    expect(shown.data[0]).toMatchObject({ id: reportedId, linkedFuelingId: fill.id, detectedGallons: 118 });
    const detections = await store.list(fleetId, { source: 'detected' }, 25);
    expect(detections.data[0]).toMatchObject({ id: fill.id, linkedFuelingId: reportedId });

    const report = await savingsReport(savingsDeps(), fleetId, { from: '2026-11-21', to: '2026-11-21' });
    expect(report.totals).toMatchObject({ fuelings: 1, gallons: 120 });
  });

  it('card first, then the detection: the same one fueling', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const result = await recordFuelings(deps, fleetId, [reportedItem(truck.id, NOW - 150 * MIN, 'MERGE-B')]);
    const reportedId = (result.results[0] as { id: string }).id;
    const fill = detected(truck.id, NOW - 110 * MIN);
    await detectedFuelings(infra).recordDetected(fleetId, fill);
    // Carried out twice (a crash before the outbox was cleared): still one record.
    await detectedFuelings(infra).recordDetected(fleetId, fill);

    const store = fuelingStores(infra).fuelings;
    const shown = await store.list(fleetId, {}, 25);
    expect(shown.data.map((f) => f.id)).toEqual([reportedId]);
    expect(shown.data[0]).toMatchObject({ linkedFuelingId: fill.id, detectedGallons: 118 });
    expect((await store.list(fleetId, { source: 'detected' }, 25)).data).toEqual([
      expect.objectContaining({ id: fill.id, linkedFuelingId: reportedId }),
    ]);
    const report = await savingsReport(savingsDeps(), fleetId, {});
    expect(report.totals).toMatchObject({ fuelings: 1, gallons: 120, spend_usd: 432 });
  });

  it('61 minutes apart they are two fills', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    await detectedFuelings(infra).recordDetected(fleetId, detected(truck.id, NOW - 200 * MIN));
    await recordFuelings(deps, fleetId, [reportedItem(truck.id, NOW - 139 * MIN, 'APART')]);
    expect((await fuelingStores(infra).fuelings.list(fleetId, {}, 25)).data).toHaveLength(2);
  });
});

function savingsDeps() {
  return {
    vehicles: vehicleStore(infra),
    savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
    flagged: createFlaggedPurchaseReader(infra.client, infra.config.tableName),
    fuelPrograms: { get: async () => NO_FUEL_PROGRAM },
    now: clock.now,
  };
}

describe('matching a reported fill to a recommended stop', () => {
  it('matches by position while the stop stood, marks it followed and announces fueling.matched', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    const stop = recommended(truck.id, NOW - 240 * MIN, {
      tripId: 'trip_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
      tripStopId: 'tsp_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
    });
    await recommendations.recommended(fleetId, stop);
    events.length = 0;
    const result = await recordFuelings(deps, fleetId, [
      {
        vehicle_id: truck.id,
        fueled_at: at(NOW - 200 * MIN),
        gallons: 110,
        price_usd_per_gallon: 3.56,
        discount_usd_per_gallon: 0.15,
        latitude: station.latitude + 0.002,
        longitude: station.longitude,
        card_transaction_ref: 'MATCH-1',
      },
    ]);
    const id = (result.results[0] as { id: string }).id;
    expect(events).toEqual([
      {
        type: 'fueling.matched',
        dedupeKey: `fueling.matched:${id}`,
        data: expect.objectContaining({
          fueling_id: id,
          vehicle_id: truck.id,
          external_ref: truck.externalRef,
          guidance_id: stop.guidanceId,
          trip_id: stop.tripId,
          stop_id: stop.tripStopId,
          station_id: station.id,
          gallons: 110,
          net_price_usd_per_gallon: 3.41,
          recommended_net_price_usd_per_gallon: 3.41,
        }),
      },
    ]);
    expect(await recommendations.get(fleetId, truck.id, stop.stopId)).toMatchObject({
      followedFuelingId: id,
    });
    // The truck drives on: the stop is withdrawn beside the station, due and followed.
    await recommendations.withdrawn(fleetId, {
      vehicleId: truck.id,
      stopId: stop.stopId,
      withdrawnAtMs: NOW - 190 * MIN,
      due: true,
    });
    await recommendations.withdrawn(fleetId, {
      vehicleId: truck.id,
      stopId: stop.stopId,
      withdrawnAtMs: NOW - 180 * MIN,
      due: true,
    });
    const report = await savingsReport(savingsDeps(), fleetId, { vehicle_id: `ext:${truck.externalRef}` });
    expect(report.totals).toMatchObject({ recommended_stops: 1, followed_stops: 1, missed_savings_usd: 0 });
    expect(report.adherence_rate).toBe(1);
  });

  it('states fueling.matched on the fill’s price basis: its effective price and the stop’s', async () => {
    // Prepare: the stop was shown under ifta at $3.41 net, $3.21 after the station's 20.0¢ credit;
    // the card paid $3.60 − $0.15 = $3.45 net, so $3.25 after the same credit.
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const stop = recommended(truck.id, NOW - 240 * MIN, {
      state: station.state,
      stateTax: 0.2,
      taxTreatment: 'ifta',
      effectivePrice: 3.21,
    });
    await fuelingStores(infra).recommendations.recommended(fleetId, stop);
    events.length = 0;

    // Act
    await recordFuelings(deps, fleetId, [
      {
        vehicle_id: truck.id,
        fueled_at: at(NOW - 200 * MIN),
        gallons: 110,
        price_usd_per_gallon: 3.6,
        discount_usd_per_gallon: 0.15,
        latitude: station.latitude + 0.002,
        longitude: station.longitude,
        card_transaction_ref: 'MATCH-BASIS',
      },
    ]);

    // Assess
    expect(station.state).toBe('OK');
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({
        station: { id: station.id, name: station.name, state: 'OK' },
        net_price_usd_per_gallon: 3.45,
        recommended_net_price_usd_per_gallon: 3.41,
        state_tax_usd_per_gallon: 0.2,
        fuel_tax_treatment: 'ifta',
        effective_price_usd_per_gallon: 3.25,
        recommended_effective_price_usd_per_gallon: 3.21,
      }),
    ]);
  });

  it('a card naming a station matches only a recommendation of that station, not one next door', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    // Recommended: the station next door to the one on the card (at the same interchange).
    const nextDoor = recommended(truck.id, NOW - 240 * MIN, { stationId: 'stn_NEXTDOOR000000000000000000' });
    await recommendations.recommended(fleetId, nextDoor);
    events.length = 0;
    const card = (ref: string, stationId: string) => ({
      vehicle_id: truck.id,
      fueled_at: at(NOW - 200 * MIN),
      gallons: 110,
      price_usd_per_gallon: 3.56,
      station_id: stationId,
      latitude: station.latitude,
      longitude: station.longitude,
      card_transaction_ref: ref,
    });
    const elsewhere = await recordFuelings(deps, fleetId, [card('NEXT-DOOR-1', station.id)]);
    const id = (elsewhere.results[0] as { id: string }).id;
    expect(events.map((e) => e.type)).not.toContain('fueling.matched');
    const { data } = await fuelingStores(infra).fuelings.list(fleetId, {}, 25);
    expect(data.find((f) => f.id === id)).toMatchObject({
      stopId: null,
      stationId: station.id,
      unmatchedReason: 'not_at_recommended_station',
    });
    expect(await recommendations.get(fleetId, truck.id, nextDoor.stopId)).toMatchObject({
      followedFuelingId: null,
    });

    // The card naming the recommended station itself matches it.
    const shown = recommended(truck.id, NOW - 240 * MIN);
    await recommendations.recommended(fleetId, shown);
    const there = await recordFuelings(deps, fleetId, [
      { ...card('NEXT-DOOR-2', station.id), fueled_at: at(NOW - 100 * MIN) },
    ]);
    const thereId = (there.results[0] as { id: string }).id;
    expect(await recommendations.get(fleetId, truck.id, shown.stopId)).toMatchObject({
      followedFuelingId: thereId,
    });
  });

  it('a fill elsewhere while the stop stood carries missed savings; the stop is due but not followed', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    const stop = recommended(truck.id, NOW - 240 * MIN);
    await recommendations.recommended(fleetId, stop);
    await recordFuelings(deps, fleetId, [
      // 30 miles north of the station: $3.61 net against $3.41 recommended on 100 gal = $20.00 missed.
      {
        vehicle_id: truck.id,
        fueled_at: at(NOW - 200 * MIN),
        gallons: 100,
        price_usd_per_gallon: 3.61,
        latitude: station.latitude + 0.43,
        longitude: station.longitude,
      },
    ]);
    await recommendations.withdrawn(fleetId, {
      vehicleId: truck.id,
      stopId: stop.stopId,
      withdrawnAtMs: NOW - 150 * MIN,
      due: true,
    });
    const report = await savingsReport(savingsDeps(), fleetId, {});
    expect(report.totals).toMatchObject({ missed_savings_usd: 20, recommended_stops: 1, followed_stops: 0 });
    expect(report.adherence_rate).toBe(0);
  });
});

describe('the savings report over a seeded month', () => {
  it('sums the month per vehicle, totals equal the rows, and another fleet sees none of it', async () => {
    const fleetId = newId('fleet');
    const trucks = [await newTruck(fleetId, 'MONTH-A'), await newTruck(fleetId, 'MONTH-B')];
    const { recommendations } = fuelingStores(infra);
    const day = (n: number) => Date.parse('2026-10-22T14:00:00Z') + n * 86_400_000;
    const expected = new Map<
      string,
      { fuelings: number; gallons: number; spend: number; recommended: number; followed: number }
    >();
    for (const [t, truck] of trucks.entries()) {
      const sums = { fuelings: 0, gallons: 0, spend: 0, recommended: 0, followed: 0 };
      for (let n = 0; n < 30; n++) {
        const gallons = 80 + t * 10 + (n % 5);
        const net = 3.4 + (n % 3) / 100;
        // Every third day the stop recommended that morning is followed; every other day it is due but passed.
        const stop = recommended(truck.id, day(n) - 120 * MIN, {
          stopId: newId('guidanceStop', day(n) - 120 * MIN),
        });
        await recommendations.recommended(fleetId, stop);
        const followed = n % 3 === 0;
        await recordFuelings(deps, fleetId, [
          {
            vehicle_id: truck.id,
            fueled_at: at(day(n)),
            gallons,
            price_usd_per_gallon: net,
            ...(followed
              ? { station_id: station.id }
              : { latitude: station.latitude + 1, longitude: station.longitude }),
          },
        ]);
        await recommendations.withdrawn(fleetId, {
          vehicleId: truck.id,
          stopId: stop.stopId,
          withdrawnAtMs: day(n) + 30 * MIN,
          due: true,
        });
        sums.fuelings += 1;
        sums.gallons += gallons;
        sums.spend += Math.round(net * gallons * 100);
        sums.recommended += 1;
        sums.followed += followed ? 1 : 0;
      }
      expected.set(truck.id, sums);
    }
    const report = await savingsReport(savingsDeps(), fleetId, { from: '2026-10-22', to: '2026-11-20' });
    expect(report.vehicles.map((v) => v.external_ref).sort()).toEqual(['MONTH-A', 'MONTH-B']);
    for (const row of report.vehicles) {
      const sums = expected.get(row.vehicle_id);
      expect(row).toMatchObject({
        fuelings: sums?.fuelings,
        gallons: sums?.gallons,
        spend_usd: (sums?.spend ?? 0) / 100,
        recommended_stops: 30,
        followed_stops: 10,
        adherence_rate: 0.3333,
      });
      expect(row.savings_usd).toBeCloseTo(row.counterfactual_spend_usd - row.effective_spend_usd, 2);
    }
    const sum = (key: 'fuelings' | 'gallons' | 'spend_usd' | 'savings_usd' | 'recommended_stops') =>
      Math.round(report.vehicles.reduce((s, v) => s + v[key], 0) * 100) / 100;
    expect(report.totals).toMatchObject({
      fuelings: sum('fuelings'),
      gallons: sum('gallons'),
      spend_usd: sum('spend_usd'),
      savings_usd: sum('savings_usd'),
      recommended_stops: sum('recommended_stops'),
      followed_stops: 20,
    });
    // The first day alone, and a period the fuelings are not in.
    expect(
      (await savingsReport(savingsDeps(), fleetId, { from: '2026-10-22', to: '2026-10-22' })).totals.fuelings,
    ).toBe(2);
    expect(
      (await savingsReport(savingsDeps(), fleetId, { from: '2026-09-01', to: '2026-09-30' })).vehicles,
    ).toEqual([]);
    expect(
      (await savingsReport(savingsDeps(), newId('fleet'), { from: '2026-10-22', to: '2026-11-20' })).vehicles,
    ).toEqual([]);
  });
});

describe('fueling.matched: once per fill, never lost', () => {
  const matchedEvents = () => events.filter((e) => e.type === 'fueling.matched');

  /** The worker's cycle as the outbox carries it: the detection, fueling.recorded, fueling.matched. */
  async function carryOutDetection(fleetId: string, fill: Fueling, stop: RecommendedStop) {
    const recorded = {
      type: 'fueling.recorded' as const,
      dedupeKey: `fueling.recorded:${fill.id}`,
      data: {},
    };
    const matched = {
      type: 'fueling.matched' as const,
      dedupeKey: `fueling.matched:${fill.id}`,
      data: { fueling_id: fill.id, stop_id: stop.stopId },
    };
    const tracking = {
      fleetId,
      outbox: { events: [recorded, matched], fuelings: [fill], archive: [] },
    } as unknown as VehicleTracking;
    const recorder = { record: deps.events.record };
    await carryOut(
      {
        tracking: { clearOutbox: async () => {} },
        sessionArchive: { put: async () => {} },
        fuelings: detectedFuelings(infra, recorder),
        recommendations: fuelingStores(infra).recommendations,
        events: recorder,
      },
      tracking,
    );
  }

  async function truckAtStop() {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const stop = recommended(truck.id, NOW - 240 * MIN);
    await fuelingStores(infra).recommendations.recommended(fleetId, stop);
    const card = (ref?: string) => ({
      vehicle_id: truck.id,
      fueled_at: at(NOW - 200 * MIN),
      gallons: 110,
      price_usd_per_gallon: 3.41,
      station_id: station.id,
      ...(ref ? { card_transaction_ref: ref } : {}),
    });
    const detection = detected(truck.id, NOW - 190 * MIN, {
      externalRef: truck.externalRef,
      guidanceId: stop.guidanceId,
      stopId: stop.stopId,
      stationId: station.id,
    });
    return { fleetId, stop, card, detection };
  }

  it('a card before its matched detection: announced once, for the card', async () => {
    const { fleetId, stop, card, detection } = await truckAtStop();
    events.length = 0;
    const result = await recordFuelings(deps, fleetId, [card('ONCE-1')]);
    await carryOutDetection(fleetId, detection, stop);
    // Carried out again (a crash before the outbox was cleared): still nothing more.
    await carryOutDetection(fleetId, detection, stop);
    expect(matchedEvents().map((e) => e.dedupeKey)).toEqual([
      `fueling.matched:${(result.results[0] as { id: string }).id}`,
    ]);
    expect(events.filter((e) => e.type === 'fueling.recorded')).toHaveLength(2);
  });

  it('a detection the worker matched is announced even when its stop has no record here', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    // A session older than the recommended-stop records: the stop was never kept.
    const unkept = recommended(truck.id, NOW - 240 * MIN);
    const detection = detected(truck.id, NOW - 190 * MIN, {
      guidanceId: unkept.guidanceId,
      stopId: unkept.stopId,
    });
    events.length = 0;
    await carryOutDetection(fleetId, detection, unkept);
    expect(matchedEvents().map((e) => e.dedupeKey)).toEqual([`fueling.matched:${detection.id}`]);
  });

  it('a matched detection before its card: announced once, for the detection, in order', async () => {
    const { fleetId, stop, card, detection } = await truckAtStop();
    events.length = 0;
    await carryOutDetection(fleetId, detection, stop);
    await recordFuelings(deps, fleetId, [card('ONCE-2')]);
    expect(events.map((e) => e.type)).toEqual(['fueling.recorded', 'fueling.matched']);
    expect(matchedEvents()[0]?.dedupeKey).toBe(`fueling.matched:${detection.id}`);
  });

  it('a failed event write answers the item retryable; the re-sent fill is duplicate and announced', async () => {
    const { fleetId, card } = await truckAtStop();
    events.length = 0;
    let failures = 1;
    const flaky: RecordFuelingsDeps = {
      ...deps,
      events: {
        record: async (...args: Parameters<RecordFuelingsDeps['events']['record']>) => {
          if (failures-- > 0) throw new Error('event store unavailable');
          return deps.events.record(...args);
        },
      },
    };
    const first = await recordFuelings(flaky, fleetId, [card('LOST-1'), card()]);
    expect(first.results[0]).toMatchObject({ status: 'rejected', code: 'storage_unavailable' });
    expect(matchedEvents()).toHaveLength(1);
    const again = await recordFuelings(flaky, fleetId, [card('LOST-1'), card()]);
    expect(again).toMatchObject({ accepted: 0, duplicates: 2 });
    const ids = again.results.map((r) => (r as { id: string }).id);
    expect(new Set(matchedEvents().map((e) => e.dedupeKey))).toEqual(
      new Set(ids.map((id) => `fueling.matched:${id}`)),
    );
  });

  it('the same fill without a card reference, re-sent, is one record', async () => {
    const { fleetId, card } = await truckAtStop();
    const first = await recordFuelings(deps, fleetId, [card()]);
    const again = await recordFuelings(deps, fleetId, [card()]);
    expect(again.results[0]).toEqual({
      index: 0,
      status: 'duplicate',
      id: (first.results[0] as { id: string }).id,
    });
    expect((await fuelingStores(infra).fuelings.list(fleetId, {}, 25)).data).toHaveLength(1);
  });

  it('an item whose records keep changing is rejected on its own, retryable', async () => {
    const { fleetId, card } = await truckAtStop();
    const other = await newTruck(fleetId);
    const contended: RecordFuelingsDeps = {
      ...deps,
      fuelings: {
        ...deps.fuelings,
        record: async (id, write) =>
          write.fueling.vehicleId === other.id
            ? { recorded: false, reason: 'changed' }
            : deps.fuelings.record(id, write),
      },
    };
    const result = await recordFuelings(contended, fleetId, [
      card('BUSY-1'),
      { ...card('BUSY-2'), vehicle_id: other.id },
    ]);
    expect(result).toMatchObject({ accepted: 1, rejected: 1 });
    expect(result.results[1]).toMatchObject({ status: 'rejected', code: 'storage_unavailable' });
  });
});

describe('a reported and a detected fill recorded at the same moment', () => {
  it('are merged into one fill, whichever starts first', async () => {
    const fleetId = newId('fleet');
    const recordDeps = createFuelingRecordDeps(infra, deps.events);
    for (const reportFirst of [true, false, true, false]) {
      const truck = await newTruck(fleetId);
      const detection = detected(truck.id, NOW - 180 * MIN, { externalRef: truck.externalRef });
      const card = detected(truck.id, NOW - 170 * MIN, {
        id: newId('fueling', NOW - 170 * MIN),
        source: 'reported',
        externalRef: truck.externalRef,
        gallons: 120,
        price: 3.6,
        discount: 0,
        netPrice: 3.6,
        fuelLevelBeforePercent: null,
        fuelLevelAfterPercent: null,
      });
      const [first, second] = reportFirst ? [card, detection] : [detection, card];
      await Promise.all([recordFill(recordDeps, fleetId, first), recordFill(recordDeps, fleetId, second)]);
      const shown = await fuelingStores(infra).fuelings.list(fleetId, { vehicleId: truck.id }, 25);
      expect(shown.data).toEqual([expect.objectContaining({ id: card.id, linkedFuelingId: detection.id })]);
    }
  });
});

describe('GET /v1/fuelings over a sparse filter', () => {
  it('reads a bounded number of pages and answers what it found with a cursor to go on', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const store = fuelingStores(infra).fuelings;
    // One report, then 15 newer detections the `source=reported` filter reads past one by one.
    const report = detected(truck.id, NOW - 900 * MIN, {
      source: 'reported',
      id: newId('fueling', NOW - 900 * MIN),
    });
    await store.record(fleetId, { fueling: report, mergeWith: null });
    for (let i = 0; i < 15; i++) {
      const fill = detected(truck.id, NOW - (800 - i * 10) * MIN, { netPrice: null });
      await store.record(fleetId, { fueling: fill, mergeWith: null });
    }
    const first = await store.list(fleetId, { source: 'reported' }, 1);
    expect(first.data).toEqual([]);
    expect(first.next_cursor).not.toBeNull();
    const found: string[] = [];
    let cursor = first.next_cursor;
    for (let pages = 0; cursor && pages < 5; pages++) {
      const page = await store.list(fleetId, { source: 'reported' }, 1, cursor);
      found.push(...page.data.map((f) => f.id));
      cursor = page.next_cursor;
    }
    expect(found).toEqual([report.id]);
  });
});

describe('a matched detection joining an unmatched card record', () => {
  it('hands the card record its match and takes back its missed savings', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    const atStation = recommended(truck.id, NOW - 300 * MIN);
    const farAway = recommended(truck.id, NOW - 300 * MIN, {
      stopId: newId('guidanceStop', NOW - 300 * MIN),
      latitude: station.latitude + 0.43,
    });
    await recommendations.recommended(fleetId, atStation);
    await recommendations.recommended(fleetId, farAway);
    const recordDeps = createFuelingRecordDeps(infra, deps.events);
    // The card's position is 0.6 mile from the station (too far to match it), 0.45 from the truck.
    const card = detected(truck.id, NOW - 200 * MIN, {
      id: newId('fueling', NOW - 200 * MIN),
      source: 'reported',
      externalRef: truck.externalRef,
      gallons: 100,
      latitude: station.latitude + 0.0087,
      price: 3.6,
      discount: 0,
      netPrice: 3.6,
      fuelLevelBeforePercent: null,
      fuelLevelAfterPercent: null,
    });
    const before = await recordFill(recordDeps, fleetId, card);
    expect(before).toMatchObject({ status: 'recorded', fueling: { stopId: null, missedSavingsUsd: 19 } });
    const detection = detected(truck.id, NOW - 195 * MIN, {
      externalRef: truck.externalRef,
      latitude: station.latitude + 0.0022,
      guidanceId: atStation.guidanceId,
      stopId: atStation.stopId,
      stationId: station.id,
      recommendedNetPrice: atStation.netPrice,
    });
    await recordFill(recordDeps, fleetId, detection);

    const shown = await fuelingStores(infra).fuelings.list(fleetId, {}, 25);
    expect(shown.data).toEqual([
      expect.objectContaining({
        id: card.id,
        linkedFuelingId: detection.id,
        guidanceId: atStation.guidanceId,
        stopId: atStation.stopId,
        stationId: station.id,
        recommendedNetPrice: 3.41,
        missedSavingsUsd: 0,
      }),
    ]);
    const report = await savingsReport(savingsDeps(), fleetId, {});
    expect(report.totals).toMatchObject({ fuelings: 1, gallons: 100, missed_savings_usd: 0 });
    expect(await recommendations.get(fleetId, truck.id, atStation.stopId)).toMatchObject({
      followedFuelingId: detection.id,
    });
  });
});

describe('the report names vehicles from their contributions', () => {
  it('a vehicle with only a withdrawn stop in the period is named without reading it', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const { recommendations } = fuelingStores(infra);
    const stop = recommended(truck.id, NOW - 240 * MIN);
    await recommendations.recommended(fleetId, stop);
    await recommendations.withdrawn(fleetId, {
      vehicleId: truck.id,
      stopId: stop.stopId,
      withdrawnAtMs: NOW - 200 * MIN,
      due: true,
    });
    const reads: string[] = [];
    const vehicles = vehicleStore(infra);
    const counted = {
      ...savingsDeps(),
      vehicles: {
        idForExternalRef: vehicles.idForExternalRef.bind(vehicles),
        get: (fleet: string, id: string) => {
          reads.push(id);
          return vehicles.get(fleet, id);
        },
      },
    };
    const report = await savingsReport(counted, fleetId, {});
    expect(report.vehicles).toEqual([
      expect.objectContaining({
        vehicle_id: truck.id,
        external_ref: truck.externalRef,
        recommended_stops: 1,
      }),
    ]);
    expect(reads).toEqual([]);
  });
});
