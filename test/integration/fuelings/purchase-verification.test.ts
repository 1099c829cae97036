import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { type RecordFuelingsDeps, recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { purchaseCheckDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import { createFuelingRecordDeps, fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { guidanceStores } from '#shared/guidance/wiring/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock, formatTimestamp } from '#shared/kernel/time.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { tableStores, vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';
import { webhookEnvelopeProblems } from '#test/support/published-events.ts';

/**
 * Card purchases checked against the truck through the composition root against DynamoDB Local:
 * the verdicts POST /v1/fuelings stores, `fueling.flagged` recorded once, and late breadcrumbs
 * (a truck uploading what it buffered) re-checking an unverified purchase once through ingest and
 * the guidance worker's cycle, judged on recorded times so a replayed day agrees with a live one.
 */
const client = testDocumentClient();
/** The purchase's time in every test. */
const T = Date.parse('2026-11-21T12:00:00Z');
const MIN = 60_000;
/** One degree of latitude is 69.09 miles on the haversine sphere. */
const MILE_DEG = 1 / 69.09;
const clock = fixedClock(T);
let table: string;
let infra: TestInfrastructure;
let station: Station;
let postDeps: RecordFuelingsDeps;
let workerDeps: ReturnType<typeof createGuidancePlanningDeps>;
const announced: EventEnvelope[] = [];

beforeAll(async () => {
  table = await createTestTable(client, 'purchase-verification');
  infra = testInfrastructure({ tableName: table, clock });
  const events = eventRecorderOn(infra.client, table, 'prod', clock.now, async (event) => {
    announced.push(event);
  });
  postDeps = {
    ...createFuelingRecordDeps(infra, events),
    ...purchaseCheckDeps(infra),
    vehicles: vehicleStore(infra),
    catalog: stationSources(infra).catalog,
    fuelTaxes: stationSources(infra).fuelTaxes,
    fleets: tableStores(infra).fleets,
    now: clock.now,
  };
  workerDeps = createGuidancePlanningDeps(infra, { events });
  const index = await stationSources(infra).catalog.current();
  station = index.nearby(35.47, -97.52, 100, 1)[0]?.station as Station;
});
afterAll(() => deleteTestTable(client, table));

/** A truck with a 100-gallon tank, in a fleet of its own. */
async function newTruck() {
  const fleetId = newId('fleet');
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `VERIFY-${Math.random().toString(36).slice(2, 8)}`,
    tank_size_gallons: 100,
    estimated_mpg: 6.5,
  });
  const flagged = () => announced.filter((e) => e.fleet_id === fleetId && e.type === 'fueling.flagged');
  return { fleetId, vehicleId: vehicle.id, flagged };
}

interface Crumb {
  atMs: number;
  miles: number;
  fuel: number | null;
}

/** A breadcrumb `miles` north of the station, `minutes` from the purchase. */
const crumb = (minutes: number, miles: number, fuel: number | null = null): Crumb => ({
  atMs: T + minutes * MIN,
  miles,
  fuel,
});

/** At the pumps from 15 min before the purchase to 5 min after, the level 20 → 80 %; then gone. */
const fillAtStation = (): Crumb[] => [
  crumb(-50, 40, 24),
  crumb(-30, 15, 22),
  crumb(-15, 0.02, 20),
  crumb(-10, 0.02, 20),
  crumb(-5, 0.02, 50),
  crumb(0, 0.02, 79),
  crumb(5, 0.02, 80),
  crumb(20, 12, 79),
  crumb(45, 35, 77),
  crumb(65, 55, 75),
];

/** The same hours 600 miles north of the station. */
const farAway = (): Crumb[] => [-40, -20, -5, 10, 30, 65].map((m) => crumb(m, 600 + (m + 40) / 2));

/** Breadcrumbs through ingest, in batches of `perBatch` (one worker cycle each). */
async function drive(
  truck: { fleetId: string; vehicleId: string },
  crumbs: readonly Crumb[],
  perBatch: number,
) {
  for (let i = 0; i < crumbs.length; i += perBatch) {
    const batch = crumbs.slice(i, i + perBatch);
    clock.set(Math.max(clock.now(), (batch.at(-1) as Crumb).atMs + 30_000));
    const answer = await ingestLocations(
      ingestDeps(infra),
      truck.fleetId,
      batch.map((c) => ({
        vehicle_id: truck.vehicleId,
        latitude: station.latitude + c.miles * MILE_DEG,
        longitude: station.longitude,
        recorded_at: new Date(c.atMs).toISOString(),
        ...(c.fuel === null ? {} : { fuel_level_percent: c.fuel }),
        speed_mph: c.miles < 0.1 ? 0 : 60,
      })),
    );
    expect(answer.rejected).toBe(0);
    infra.sent.vehicleUpdates.take();
    await processVehicleUpdate(workerDeps, truck);
  }
}

/** POST /v1/fuelings of one purchase at the station at T; returns the stored fueling. */
async function purchase(truck: { fleetId: string; vehicleId: string }, gallons: number, ref: string) {
  clock.set(Math.max(clock.now(), T + 10 * MIN));
  const answer = await recordFuelings(postDeps, truck.fleetId, [
    {
      vehicle_id: truck.vehicleId,
      fueled_at: new Date(T).toISOString(),
      gallons,
      price_usd_per_gallon: 3.6,
      station_id: station.id,
      card_transaction_ref: ref,
    },
  ]);
  const [result] = answer.results;
  if (result?.status !== 'accepted') throw new Error(`purchase not accepted: ${JSON.stringify(result)}`);
  return stored(truck, result.id);
}

/** The fueling as stored now (consistent read). */
async function stored(truck: { fleetId: string; vehicleId: string }, id: string): Promise<Fueling> {
  const found = await fuelingStores(infra).fuelings.get(truck.fleetId, {
    id,
    fueledAt: formatTimestamp(T),
  });
  expect(found?.vehicleId).toBe(truck.vehicleId);
  return found as Fueling;
}

const codes = (fueling: Fueling) => fueling.verification?.reasons.map((r) => r.code);

describe('POST /v1/fuelings stores each purchase’s verdict', () => {
  it('verifies a purchase the truck’s breadcrumbs and level confirm, announcing nothing', async () => {
    const truck = await newTruck();
    await drive(truck, fillAtStation(), 3);
    const fueling = await purchase(truck, 60, 'V-OK-1');
    expect(fueling.verification).toMatchObject({
      status: 'verified',
      // When it was processed.
      checkedAt: formatTimestamp(clock.now()),
      rechecked: false,
    });
    expect(codes(fueling)).toEqual(['at_station', 'level_rose']);
    // Rule `none`: the program says nothing about the station.
    expect(fueling.inFuelProgram).toBeNull();
    expect(truck.flagged()).toEqual([]);
    const tracking = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    expect(tracking.pendingVerifications ?? []).toEqual([]);
  });

  it('flags 180 gallons into a 100-gallon tank and announces it once, a re-send included', async () => {
    const truck = await newTruck();
    await drive(truck, fillAtStation(), 10);
    const fueling = await purchase(truck, 180, 'V-TANK-1');
    expect(fueling.verification?.status).toBe('flagged');
    expect(codes(fueling)?.[0]).toBe('exceeds_tank_size');
    expect(fueling.verification?.reasons[0]?.detail).toBe("180 gal is more than the vehicle's 100 gal tank.");
    const again = await recordFuelings(postDeps, truck.fleetId, [
      {
        vehicle_id: truck.vehicleId,
        fueled_at: new Date(T).toISOString(),
        gallons: 180,
        price_usd_per_gallon: 3.6,
        station_id: station.id,
        card_transaction_ref: 'V-TANK-1',
      },
    ]);
    expect(again.results[0]).toMatchObject({ status: 'duplicate', id: fueling.id });
    const [event, ...more] = truck.flagged();
    expect(more).toEqual([]);
    expect(webhookEnvelopeProblems(event)).toEqual([]);
    expect(event?.data).toMatchObject({
      fueling_id: fueling.id,
      vehicle_id: truck.vehicleId,
      gallons: 180,
      station: { id: station.id, name: station.name, chain: station.chain },
      card_transaction_ref: 'V-TANK-1',
      verification: { status: 'flagged', checked_at: fueling.verification?.checkedAt },
    });
  });

  it('flags a purchase 600 miles from where the truck’s breadcrumbs put it', async () => {
    const truck = await newTruck();
    await drive(truck, farAway(), 10);
    const fueling = await purchase(truck, 60, 'V-FAR-1');
    expect(fueling.verification?.status).toBe('flagged');
    expect(codes(fueling)).toContain('away_from_station');
    expect(truck.flagged()).toHaveLength(1);
  });

  it('leaves a purchase with no breadcrumbs near it unverified, waiting on the vehicle for late ones', async () => {
    const truck = await newTruck();
    const fueling = await purchase(truck, 60, 'V-NONE-1');
    expect(fueling.verification?.status).toBe('unverified');
    expect(codes(fueling)).toContain('no_breadcrumbs_near_time');
    const tracking = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    expect(tracking.pendingVerifications ?? []).toEqual([
      { fuelingId: fueling.id, fueledAt: fueling.fueledAt, heard: false },
    ]);
    expect(truck.flagged()).toEqual([]);
  });
});

describe('POST /v1/fuelings counts split purchases together against the tank', () => {
  const split = (truck: { vehicleId: string }, minutes: number, gallons: number, ref: string) => ({
    vehicle_id: truck.vehicleId,
    fueled_at: new Date(T + minutes * MIN).toISOString(),
    gallons,
    price_usd_per_gallon: 3.6,
    station_id: station.id,
    card_transaction_ref: ref,
  });

  it('flags two 80-gal purchases 5 min apart into the 100-gal tank, in one batch or two', async () => {
    const truck = await newTruck();
    await drive(truck, fillAtStation(), 10);
    clock.set(Math.max(clock.now(), T + 70 * MIN));
    const one = await recordFuelings(postDeps, truck.fleetId, [
      split(truck, -5, 80, 'V-SPLIT-A'),
      split(truck, 0, 80, 'V-SPLIT-B'),
    ]);
    expect(one.accepted).toBe(2);
    for (const result of one.results) {
      if (result.status !== 'accepted') throw new Error(JSON.stringify(result));
      const fueling = await fuelingStores(infra).fuelings.get(truck.fleetId, {
        id: result.id,
        fueledAt: formatTimestamp(result.index === 0 ? T - 5 * MIN : T),
      });
      expect(fueling?.verification?.status).toBe('flagged');
      expect(fueling?.verification?.reasons[0]?.code).toBe('exceeds_tank_size');
      expect(fueling?.verification?.reasons[0]?.detail).toContain('is 160 gal, which is more than');
    }
    // The same purchase sent again is not another purchase: it stays a duplicate.
    const again = await recordFuelings(postDeps, truck.fleetId, [split(truck, 0, 80, 'V-SPLIT-B')]);
    expect(again.results[0]?.status).toBe('duplicate');

    // A second truck: the first purchase alone is verified (80 gal ≤ 80 gal of room at 20 % + 5); the second, in a later request, flagged.
    const other = await newTruck();
    await drive(other, fillAtStation(), 10);
    const first = await recordFuelings(postDeps, other.fleetId, [split(other, -5, 80, 'V-SPLIT-C')]);
    const second = await recordFuelings(postDeps, other.fleetId, [split(other, 0, 80, 'V-SPLIT-D')]);
    const [a, b] = [first.results[0], second.results[0]];
    if (a?.status !== 'accepted' || b?.status !== 'accepted') throw new Error('not accepted');
    const stored = async (id: string, atMs: number) =>
      (await fuelingStores(infra).fuelings.get(other.fleetId, { id, fueledAt: formatTimestamp(atMs) }))
        ?.verification;
    expect((await stored(a.id, T - 5 * MIN))?.status).toBe('verified');
    const flagged = await stored(b.id, T);
    expect(flagged?.status).toBe('flagged');
    expect(flagged?.reasons[0]?.detail).toContain(`${a.id} (80 gal, 5 min before the purchase)`);
  });
});

describe('POST /v1/fuelings of a purchase whose window is complete already', () => {
  it('leaves it unverified with nothing waiting on the vehicle: no breadcrumb of its window can come late', async () => {
    const truck = await newTruck();
    // The card feed hours late: the truck has reported past the window's end (T + 60 min).
    await drive(truck, [crumb(-120, 80), crumb(70, 90)], 2);
    const before = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    const fueling = await purchase(truck, 60, 'V-COMPLETE-1');
    expect(fueling.verification?.status).toBe('unverified');
    expect(codes(fueling)).toContain('no_breadcrumbs_near_time');
    const tracking = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    expect(tracking.pendingVerifications ?? []).toEqual([]);
    // Not written at all: no version bump for the worker's cycles in flight to redo.
    expect(tracking).toEqual(before);
  });

  it('still waits when the newest breadcrumb is short of the window’s end', async () => {
    const truck = await newTruck();
    await drive(truck, [crumb(-120, 80), crumb(59, 90)], 2);
    const fueling = await purchase(truck, 60, 'V-COMPLETE-2');
    expect(fueling.verification?.status).toBe('unverified');
    const tracking = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    expect(tracking.pendingVerifications ?? []).toEqual([
      { fuelingId: fueling.id, fueledAt: fueling.fueledAt, heard: false },
    ]);
  });
});

describe('POST /v1/fuelings when a vehicle’s data cannot be read', () => {
  it('rejects that vehicle’s purchases storage_unavailable and records the other vehicle’s, a 200', async () => {
    const ok = await newTruck();
    await drive(ok, fillAtStation(), 10);
    const fleetId = ok.fleetId;
    // The second truck belongs to the same fleet: one batch for both.
    const { vehicle: other } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
      external_ref: `VERIFY-THROTTLED-${Math.random().toString(36).slice(2, 8)}`,
      tank_size_gallons: 100,
    });
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ThrottlingException',
    });
    const positions = postDeps.positions;
    const deps: RecordFuelingsDeps = {
      ...postDeps,
      positions: {
        recent: positions.recent,
        historySince: (fleet, vehicleId, ...rest) =>
          vehicleId === other.id
            ? Promise.reject(throttled)
            : positions.historySince(fleet, vehicleId, ...rest),
      },
    };
    clock.set(Math.max(clock.now(), T + 10 * MIN));
    const item = (vehicleId: string, ref: string) => ({
      vehicle_id: vehicleId,
      fueled_at: new Date(T).toISOString(),
      gallons: 60,
      price_usd_per_gallon: 3.6,
      station_id: station.id,
      card_transaction_ref: ref,
    });
    const answer = await recordFuelings(deps, fleetId, [
      item(other.id, 'V-THR-1'),
      item(ok.vehicleId, 'V-THR-OK'),
      { ...item(other.id, 'V-THR-2'), fueled_at: new Date(T + 20 * MIN).toISOString() },
    ]);
    expect(answer).toMatchObject({ accepted: 1, rejected: 2, duplicates: 0 });
    for (const index of [0, 2]) {
      expect(answer.results[index]).toMatchObject({
        index,
        status: 'rejected',
        code: 'storage_unavailable',
        hint: expect.stringContaining('resend this item with backoff'),
      });
    }
    const accepted = answer.results[1];
    if (accepted?.status !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(accepted)}`);
    expect((await stored(ok, accepted.id)).verification?.status).toBe('verified');
    // Nothing of the failing vehicle was recorded: a re-send is accepted, not a duplicate.
    const { fuelings } = fuelingStores(infra);
    const none = await fuelings.ofVehicleBetween(
      fleetId,
      other.id,
      formatTimestamp(T - 60 * MIN),
      formatTimestamp(T + 60 * MIN),
    );
    expect(none).toEqual([]);
    const resent = await recordFuelings(postDeps, fleetId, [item(other.id, 'V-THR-1')]);
    expect(resent.results[0]).toMatchObject({ status: 'accepted' });
  });
});

describe('POST /v1/fuelings keeps whether the card program accepted the station', () => {
  /** The purchase recorded under a fleet program (the port as helper A's fleet item answers it). */
  const underProgram = async (program: FuelProgram, item: Record<string, unknown>) => {
    const truck = await newTruck();
    const deps = { ...postDeps, fuelPrograms: { get: async () => program } };
    const answer = await recordFuelings(deps, truck.fleetId, [
      { vehicle_id: truck.vehicleId, fueled_at: new Date(T).toISOString(), gallons: 60, ...item },
    ]);
    const [result] = answer.results;
    if (result?.status !== 'accepted') throw new Error(`purchase not accepted: ${JSON.stringify(result)}`);
    return stored(truck, result.id);
  };
  const required = (chain: string): FuelProgram => ({
    rule: 'required',
    chains: [{ chain, discountCents: 12 }],
    offProgramPenaltyCents: 0,
    updatedAt: '2026-11-01T00:00:00.000000Z',
  });

  it('true at a chain of the program, whatever its case; false at another; null without a station', async () => {
    const accepted = await underProgram(required(station.chain.toUpperCase()), { station_id: station.id });
    expect(accepted.inFuelProgram).toBe(true);
    const refused = await underProgram(required('No Such Chain'), { station_id: station.id });
    expect(refused.inFuelProgram).toBe(false);
    // Coordinates in the Gulf of Mexico: no catalog station to place the purchase at.
    const nowhere = await underProgram(required(station.chain), { latitude: 26, longitude: -90 });
    expect(nowhere.station).toBeNull();
    expect(nowhere.inFuelProgram).toBeNull();
  });
});

describe('late breadcrumbs re-check an unverified purchase once, through the worker', () => {
  it('turns it verified, silently, and leaves it so', async () => {
    const truck = await newTruck();
    const posted = await purchase(truck, 60, 'V-LATE-OK');
    expect(posted.verification?.status).toBe('unverified');
    // The truck uploads what it buffered: the fill and the hour after it, one batch.
    await drive(truck, fillAtStation(), 100);
    const fueling = await stored(truck, posted.id);
    expect(fueling.verification).toMatchObject({ status: 'verified', rechecked: true });
    expect(codes(fueling)).toEqual(['at_station', 'level_rose']);
    expect(truck.flagged()).toEqual([]);
    const tracking = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    expect(tracking.pendingVerifications ?? []).toEqual([]);
    // More breadcrumbs change nothing.
    await drive(truck, [crumb(90, 80, 72)], 1);
    expect((await stored(truck, posted.id)).verification).toEqual(fueling.verification);
  });

  it('turns it flagged with one fueling.flagged, once', async () => {
    const truck = await newTruck();
    const posted = await purchase(truck, 60, 'V-LATE-FAR');
    await drive(truck, farAway(), 100);
    const fueling = await stored(truck, posted.id);
    expect(fueling.verification).toMatchObject({ status: 'flagged', rechecked: true });
    expect(codes(fueling)).toContain('away_from_station');
    await drive(truck, [crumb(90, 650), crumb(100, 660)], 1);
    const [event, ...more] = truck.flagged();
    expect(more).toEqual([]);
    expect(webhookEnvelopeProblems(event)).toEqual([]);
    expect(event?.data).toMatchObject({
      fueling_id: posted.id,
      verification: { status: 'flagged', checked_at: fueling.verification?.checkedAt },
    });
  });

  it('counts the vehicle’s other purchases on the re-check: 50 + 50 gal into 85 gal of room, both flagged', async () => {
    const truck = await newTruck();
    clock.set(Math.max(clock.now(), T + 10 * MIN));
    const posted = await recordFuelings(
      postDeps,
      truck.fleetId,
      [-5, 0].map((minutes, i) => ({
        vehicle_id: truck.vehicleId,
        fueled_at: new Date(T + minutes * MIN).toISOString(),
        gallons: 50,
        price_usd_per_gallon: 3.6,
        station_id: station.id,
        card_transaction_ref: `V-LATE-SPLIT-${i}`,
      })),
    );
    const ids = posted.results.map((r) => (r.status === 'accepted' ? r.id : ''));
    const verdictOf = async (index: number) =>
      (
        await fuelingStores(infra).fuelings.get(truck.fleetId, {
          id: ids[index] as string,
          fueledAt: formatTimestamp(T + (index === 0 ? -5 : 0) * MIN),
        })
      )?.verification;
    // 100 gal fits the 100 gal tank; no level yet, so the room is unknown.
    expect((await verdictOf(0))?.status).toBe('unverified');
    expect((await verdictOf(1))?.status).toBe('unverified');
    // The buffered upload: 20 % at the pumps 15 min before (80 gal of room + 5 tolerance).
    await drive(truck, fillAtStation(), 100);
    for (const index of [0, 1]) {
      const verification = await verdictOf(index);
      expect(verification).toMatchObject({ status: 'flagged', rechecked: true });
      expect(verification?.reasons[0]?.code).toBe('exceeds_room_in_tank');
      expect(verification?.reasons[0]?.detail).toContain(`${ids[1 - index]} (50 gal, 5 min`);
    }
    expect(truck.flagged()).toHaveLength(2);
  });

  it('waits for the window’s end, remembering on the vehicle that breadcrumbs came inside it', async () => {
    const truck = await newTruck();
    const posted = await purchase(truck, 60, 'V-LATE-WAIT');
    // Up to the purchase: inside its window, but the hour after it may still come.
    await drive(truck, fillAtStation().slice(0, 6), 6);
    expect((await stored(truck, posted.id)).verification).toMatchObject({
      status: 'unverified',
      rechecked: false,
    });
    const tracking = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    expect(tracking.pendingVerifications ?? []).toEqual([
      { fuelingId: posted.id, fueledAt: posted.fueledAt, heard: true },
    ]);
    // Only breadcrumbs past the window's end: the ones heard before are enough.
    await drive(truck, [crumb(61, 55, 75), crumb(70, 62, 74)], 2);
    expect((await stored(truck, posted.id)).verification).toMatchObject({
      status: 'verified',
      rechecked: true,
    });
  });

  it('drops a purchase whose window passed with no breadcrumb inside it: it stays unverified', async () => {
    const truck = await newTruck();
    const posted = await purchase(truck, 60, 'V-LATE-NONE');
    await drive(truck, [crumb(-120, 80), crumb(70, 90)], 2);
    expect((await stored(truck, posted.id)).verification).toMatchObject({
      status: 'unverified',
      rechecked: false,
    });
    const tracking = await guidanceStores(infra).tracking.get(truck.fleetId, truck.vehicleId);
    expect(tracking.pendingVerifications ?? []).toEqual([]);
  });

  it('gives a day fed live, a breadcrumb a cycle, the verdicts of the same day uploaded in one burst', async () => {
    const verdicts = async (perBatch: number) => {
      const truck = await newTruck();
      const atStation = await purchase(truck, 60, `V-DAY-A-${perBatch}`);
      const crumbs = [...fillAtStation()];
      await drive(truck, crumbs, perBatch);
      const far = await newTruck();
      const away = await purchase(far, 60, `V-DAY-B-${perBatch}`);
      await drive(far, farAway(), perBatch);
      return [await stored(truck, atStation.id), await stored(far, away.id)].map((f) => ({
        status: f.verification?.status,
        reasons: f.verification?.reasons,
        rechecked: f.verification?.rechecked,
      }));
    };
    const live = await verdicts(1);
    const burst = await verdicts(100);
    expect(live.map((v) => v.status)).toEqual(['verified', 'flagged']);
    expect(live).toEqual(burst);
  });
});
