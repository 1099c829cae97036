import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectedMatchedFill,
  fuelingMatchedEvent,
  fuelingRecordedEvent,
} from '#shared/events/domain/event-payloads.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { recommendationChanges } from '#shared/fuelings/domain/recommendations.ts';
import { createFlaggedPurchaseReader } from '#shared/fuelings/store/flagged-purchases.ts';
import { type RecordFuelingsDeps, recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { purchaseCheckDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import {
  createFuelingRecordDeps,
  detectedFuelings,
  fuelingStores,
} from '#shared/fuelings/wiring/fuelings.ts';
import {
  acknowledgeStop,
  endSession,
  type GuidanceSession,
  type GuidanceStop,
  type StopAction,
  skipStop,
  startSession,
} from '#shared/guidance/domain/session.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { createSavingsDayStore } from '#shared/reports/store/savings-days.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { detectedFueling, type Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { OutboxEvent } from '#shared/tracking/domain/outbox.ts';
import type { Detection } from '#shared/tracking/domain/types.ts';
import type { VehicleTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { carryOut } from '#shared/tracking/usecases/tracking-outbox.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * A fill at a stop guidance recommended, whatever became of the recommendation, through both paths
 * a fill takes (POST /v1/fuelings, the guidance worker's outbox carrying a detected fill) against
 * DynamoDB Local. Each case records exactly one fill, matched to the stop, followed once, counted
 * once, announced once: a fill's transaction marks the stop followed and adds to the savings day
 * in one write per item, so a stop withdrawn, skipped or ended on the fill's day never makes the
 * transaction touch that day's report item twice (which DynamoDB refuses, on every resend).
 */
const client = testDocumentClient();
const NOW = Date.parse('2026-11-21T18:00:00Z');
const clock = fixedClock(NOW);
const MIN = 60_000;
const RECOMMENDED_AT = NOW - 180 * MIN;
const CHANGED_AT = NOW - 120 * MIN;
const REPORTED_AT = NOW - 90 * MIN;
const DETECTED_AT = NOW - 85 * MIN;
let table: string;
let infra: TestInfrastructure;
let station: Station;
let events: { type: string; fleetId: string; data: Record<string, unknown> }[];
let deps: RecordFuelingsDeps;

beforeAll(async () => {
  table = await createTestTable(client, 'fill-at-stop');
  infra = testInfrastructure({ tableName: table, clock });
  events = [];
  const recorder = {
    record: async (fleetId: string, type: string, data: Record<string, unknown>) => {
      events.push({ type, fleetId, data });
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
  station = index.nearby(35.47, -97.52, 100, 1)[0]?.station as Station;
});
afterAll(() => deleteTestTable(client, table));

const STATES = ['active', 'acknowledged', 'skipped', 'withdrawn', 'cancelled', 'completed'] as const;
type State = (typeof STATES)[number];
const SOURCES = ['reported', 'detected', 'reported then detected', 'detected then reported'] as const;
type Source = (typeof SOURCES)[number];

const ok = (action: StopAction): GuidanceSession => {
  if (!action.ok) throw new Error(action.problem);
  return action.session;
};

function stopAt(session: GuidanceSession, milesAhead: number): GuidanceStop {
  return {
    id: newId('guidanceStop', session.createdAtMs),
    stationId: station.id,
    name: station.name,
    chain: station.chain,
    latitude: station.latitude,
    longitude: station.longitude,
    address: station.address,
    milesAhead,
    detourMiles: 0.4,
    gallonsToBuy: 110,
    price: 3.56,
    discount: 0.15,
    netPrice: 3.41,
    priceIsStale: false,
    reason: 'cheapest ahead',
    recommendedAtMs: RECOMMENDED_AT,
    acknowledgedAtMs: null,
  };
}

/**
 * The session's life as guidance lives it (the domain's own transitions), carried into the
 * recommended-stop records the way a committed change's outbox carries it (tracking-outbox.ts).
 */
async function guidanceIn(
  state: State,
  fleetId: string,
  vehicleId: string,
  { shownAt, changedAt } = { shownAt: RECOMMENDED_AT, changedAt: CHANGED_AT },
) {
  const started = startSession({
    id: newId('guidance', shownAt),
    vehicleId,
    destination: { latitude: 39.74, longitude: -104.99, name: 'Denver' },
    minArrivalFuelPercent: 15,
    nowMs: shownAt,
  });
  // Due states are reached beside the station (3 miles out); a withdrawn one was replaced far ahead.
  const stop = { ...stopAt(started, state === 'withdrawn' ? 40 : 3), recommendedAtMs: shownAt };
  const shown: GuidanceSession = { ...started, stops: [stop], phase: 'approaching_stop' };
  const later: Record<State, () => GuidanceSession> = {
    active: () => shown,
    acknowledged: () => ok(acknowledgeStop(shown, stop.id, changedAt)),
    skipped: () => ok(skipStop(shown, stop.id, 'closed lane', changedAt)),
    withdrawn: () => ({
      ...shown,
      stops: [{ ...stop, id: newId('guidanceStop'), stationId: 'stn_other', latitude: stop.latitude + 1 }],
    }),
    cancelled: () => endSession(shown, 'caller_cancelled', changedAt),
    completed: () => endSession(shown, 'arrived', changedAt),
  };
  const after = later[state]();
  const { recommendations } = fuelingStores(infra);
  const changes = [
    ...recommendationChanges(null, shown, shownAt),
    ...recommendationChanges(shown, after, changedAt),
  ];
  for (const change of changes) {
    if (change.kind === 'recommended') await recommendations.recommended(fleetId, change.stop);
    else await recommendations.withdrawn(fleetId, change);
  }
  return { session: shown, stop, after };
}

/** The worker's detection at the station and what its outbox carries: the fill, recorded, matched. */
async function carryOutDetection(
  fleetId: string,
  vehicle: { id: string; externalRef: string },
  session: GuidanceSession,
  stop: GuidanceStop,
) {
  const detection: Extract<Detection, { kind: 'fueling' }> = {
    kind: 'fueling',
    startedAtMs: DETECTED_AT - 12 * MIN,
    endedAtMs: DETECTED_AT,
    latitude: station.latitude + 0.001,
    longitude: station.longitude,
    levelBeforePercent: 21,
    levelAfterPercent: 92,
    gallons: 106.5,
  };
  const fueling = detectedFueling(
    vehicle,
    detection,
    { guidanceId: session.id, tripId: null, stop },
    DETECTED_AT,
  );
  await carryOutOutbox(fleetId, vehicle.id, fueling, [
    fuelingRecordedEvent(fueling.id, vehicle.id, detection),
    fuelingMatchedEvent(detectedMatchedFill(fueling.id, vehicle, session, stop, detection)),
  ]);
  return fueling.id;
}

/** What the worker's outbox carries out for one detected fill: the fill and its events. */
async function carryOutOutbox(fleetId: string, vehicleId: string, fueling: Fueling, events: OutboxEvent[]) {
  const tracking = {
    fleetId,
    vehicleId,
    outbox: { events, fuelings: [fueling], archive: [] },
  } as unknown as VehicleTracking;
  await carryOut(
    {
      tracking: { clearOutbox: async () => {} },
      sessionArchive: { put: async () => {} },
      fuelings: detectedFuelings(infra, deps.events),
      recommendations: fuelingStores(infra).recommendations,
      events: deps.events,
    },
    tracking,
  );
}

async function postCard(fleetId: string, vehicleId: string) {
  const result = await recordFuelings(deps, fleetId, [
    {
      vehicle_id: vehicleId,
      fueled_at: new Date(REPORTED_AT).toISOString(),
      gallons: 108,
      price_usd_per_gallon: 3.56,
      discount_usd_per_gallon: 0.15,
      station_id: station.id,
      card_transaction_ref: `CARD-${vehicleId}`,
    },
  ]);
  expect(result.results[0]).toMatchObject({ status: 'accepted' });
  return (result.results[0] as { id: string }).id;
}

describe('a fill at a recommended stop, by recommendation state × source × order', () => {
  const cases = STATES.flatMap((state) => SOURCES.map((source) => ({ state, source })));

  it.each(cases)(
    '$state, $source: recorded once, matched, followed and counted once',
    async ({ state, source }: { state: State; source: Source }) => {
      const fleetId = newId('fleet');
      const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
        external_ref: `STOP-${state}-${source}`.replaceAll(' ', '-'),
        tank_size_gallons: 150,
        estimated_mpg: 6.5,
      });
      const truck = { id: vehicle.id, externalRef: vehicle.externalRef as string };
      const { session, stop, after } = await guidanceIn(state, fleetId, truck.id);

      const ids: string[] = [];
      const steps: Record<'reported' | 'detected', () => Promise<string>> = {
        reported: () => postCard(fleetId, truck.id),
        detected: () => carryOutDetection(fleetId, truck, session, stop),
      };
      const order: ('reported' | 'detected')[] =
        source === 'reported'
          ? ['reported']
          : source === 'detected'
            ? ['detected']
            : source === 'reported then detected'
              ? ['reported', 'detected']
              : ['detected', 'reported'];
      for (const step of order) ids.push(await steps[step]());

      // A stop still in the plan leaves it when the truck drives on.
      if (after.status === 'active' && after.stops.some((s) => s.id === stop.id)) {
        await fuelingStores(infra).recommendations.withdrawn(fleetId, {
          vehicleId: truck.id,
          stopId: stop.id,
          withdrawnAtMs: NOW - 60 * MIN,
          due: true,
        });
      }

      const listed = await fuelingStores(infra).fuelings.list(fleetId, {}, 25);
      const counted = order.includes('reported') ? (ids[order.indexOf('reported')] as string) : ids[0];
      expect(listed.data).toEqual([
        expect.objectContaining({
          id: counted,
          guidanceId: session.id,
          stopId: stop.id,
          missedSavingsUsd: 0,
        }),
      ]);
      expect(await fuelingStores(infra).recommendations.get(fleetId, truck.id, stop.id)).toMatchObject({
        followedFuelingId: ids[0],
      });
      const matched = events.filter((e) => e.fleetId === fleetId && e.type === 'fueling.matched');
      expect(matched.map((e) => e.data.fueling_id)).toEqual([ids[0]]);
      const report = await savingsReport(
        {
          vehicles: vehicleStore(infra),
          savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
          flagged: createFlaggedPurchaseReader(infra.client, infra.config.tableName),
          fuelPrograms: { get: async () => NO_FUEL_PROGRAM },
          now: clock.now,
        },
        fleetId,
        {},
      );
      expect(report.totals).toMatchObject({ fuelings: 1, recommended_stops: 1, followed_stops: 1 });
    },
  );
});

describe('the match window and why a fill matched nothing', () => {
  async function truckWith(state: State, times?: { shownAt: number; changedAt: number }) {
    const fleetId = newId('fleet');
    const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
      external_ref: `WINDOW-${Math.random().toString(36).slice(2, 8)}`,
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
    });
    const guided = await guidanceIn(state, fleetId, vehicle.id, times);
    return { fleetId, vehicle, ...guided };
  }
  const card = (vehicleId: string, fueledAtMs: number, where: Record<string, unknown>) => ({
    vehicle_id: vehicleId,
    fueled_at: new Date(fueledAtMs).toISOString(),
    gallons: 100,
    price_usd_per_gallon: 3.6,
    ...where,
  });
  async function judge(fleetId: string, item: Record<string, unknown>) {
    const result = await recordFuelings(deps, fleetId, [item]);
    expect(result.results[0]).toMatchObject({ status: 'accepted' });
    const id = (result.results[0] as { id: string }).id;
    const listed = await fuelingStores(infra).fuelings.list(fleetId, {}, 25);
    return listed.data.find((f) => f.id === id);
  }

  it('a card at the station up to 6 hours after the session ended is matched; later it is outside_window', async () => {
    const changedAt = NOW - 400 * MIN;
    const { fleetId, vehicle, session, stop } = await truckWith('cancelled', {
      shownAt: changedAt - 60 * MIN,
      changedAt,
    });
    const late = await judge(fleetId, card(vehicle.id, changedAt + 359 * MIN, { station_id: station.id }));
    expect(late).toMatchObject({ guidanceId: session.id, stopId: stop.id, unmatchedReason: null });
    const tooLate = await judge(
      fleetId,
      card(vehicle.id, changedAt + 361 * MIN, { station_id: station.id, card_transaction_ref: 'LATE' }),
    );
    expect(tooLate).toMatchObject({ stopId: null, unmatchedReason: 'outside_window' });
  });

  it('no recommendation in the window: no_guidance; elsewhere: not_at_recommended_station; nowhere: no_position', async () => {
    const { fleetId, vehicle } = await truckWith('active');
    expect(
      await judge(
        fleetId,
        card(vehicle.id, REPORTED_AT, { latitude: station.latitude + 1, longitude: station.longitude }),
      ),
    ).toMatchObject({ stopId: null, unmatchedReason: 'not_at_recommended_station' });
    expect(
      await judge(fleetId, card(vehicle.id, REPORTED_AT - 10 * MIN, { merchant_name: 'Cash' })),
    ).toMatchObject({ stopId: null, unmatchedReason: 'no_position' });
    const unguided = newId('fleet');
    const { vehicle: other } = await createVehicle({ vehicles: vehicleStore(infra), clock }, unguided, {
      external_ref: 'UNGUIDED',
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
    });
    expect(await judge(unguided, card(other.id, REPORTED_AT, { station_id: station.id }))).toMatchObject({
      stopId: null,
      unmatchedReason: 'no_guidance',
    });
  });

  it('a card placed off the station takes the match of the detection it joins, announced once', async () => {
    const { fleetId, vehicle, session, stop } = await truckWith('skipped');
    const truck = { id: vehicle.id, externalRef: vehicle.externalRef as string };
    const detectionId = await carryOutDetection(fleetId, truck, session, stop);
    // 0.55 mile from the station (too far to match by itself), 0.48 from the detection: the same fill.
    const joined = await judge(
      fleetId,
      card(vehicle.id, REPORTED_AT, { latitude: station.latitude + 0.008, longitude: station.longitude }),
    );
    expect(joined).toMatchObject({
      linkedFuelingId: detectionId,
      guidanceId: session.id,
      stopId: stop.id,
      missedSavingsUsd: 0,
      unmatchedReason: null,
    });
    const matched = events.filter((e) => e.fleetId === fleetId && e.type === 'fueling.matched');
    expect(matched.map((e) => e.data.fueling_id)).toEqual([detectionId]);
  });
});

describe('a detection the worker did not match', () => {
  const detectionAt = (vehicle: { id: string; externalRef: string | null }, latitude: number) =>
    detectedFueling(
      vehicle,
      {
        kind: 'fueling',
        startedAtMs: DETECTED_AT - 12 * MIN,
        endedAtMs: DETECTED_AT,
        latitude,
        longitude: station.longitude,
        levelBeforePercent: 21,
        levelAfterPercent: 92,
        gallons: 106.5,
      },
      null,
      DETECTED_AT,
    );
  async function truck(ref: string) {
    const fleetId = newId('fleet');
    const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
      external_ref: ref,
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
    });
    return { fleetId, vehicle: { id: vehicle.id, externalRef: vehicle.externalRef ?? null } };
  }
  /** The worker's outbox for a fill it did not match: the fill and its fueling.recorded only. */
  async function carryOutUnmatched(fleetId: string, fill: ReturnType<typeof detectionAt>) {
    await carryOutOutbox(fleetId, fill.vehicleId, fill, [
      { type: 'fueling.recorded', dedupeKey: `fueling.recorded:${fill.id}`, data: { fueling_id: fill.id } },
    ]);
  }

  it('at a stop shown within the window is matched by the records, announced after fueling.recorded', async () => {
    const { fleetId, vehicle } = await truck('RECORDS-MATCH');
    const { session, stop } = await guidanceIn('cancelled', fleetId, vehicle.id);
    const fill = detectionAt(vehicle, station.latitude + 0.001);
    await carryOutUnmatched(fleetId, fill);
    expect((await fuelingStores(infra).fuelings.list(fleetId, {}, 25)).data).toEqual([
      expect.objectContaining({
        id: fill.id,
        guidanceId: session.id,
        stopId: stop.id,
        unmatchedReason: null,
      }),
    ]);
    expect(events.filter((e) => e.fleetId === fleetId).map((e) => [e.type, e.data.fueling_id])).toEqual([
      ['fueling.recorded', fill.id],
      ['fueling.matched', fill.id],
    ]);
    expect(await fuelingStores(infra).recommendations.get(fleetId, vehicle.id, stop.id)).toMatchObject({
      followedFuelingId: fill.id,
    });
  });

  it('off the station, joined by a matched card of the same fill: neither record is unmatched', async () => {
    const { fleetId, vehicle } = await truck('BOTH-RECORDS');
    const { stop } = await guidanceIn('cancelled', fleetId, vehicle.id);
    // 0.55 mile from the station: too far to match.
    const fill = detectionAt(vehicle, station.latitude + 0.008);
    await carryOutUnmatched(fleetId, fill);
    const store = fuelingStores(infra).fuelings;
    expect((await store.list(fleetId, {}, 25)).data).toEqual([
      expect.objectContaining({ id: fill.id, stopId: null, unmatchedReason: 'not_at_recommended_station' }),
    ]);
    // 0.31 mile from the station (matched), 0.24 from the detection (the same fill).
    const result = await recordFuelings(deps, fleetId, [
      {
        vehicle_id: vehicle.id,
        fueled_at: new Date(REPORTED_AT).toISOString(),
        gallons: 108,
        price_usd_per_gallon: 3.56,
        latitude: station.latitude + 0.0045,
        longitude: station.longitude,
      },
    ]);
    const cardId = (result.results[0] as { id: string }).id;
    expect((await store.list(fleetId, {}, 25)).data).toEqual([
      expect.objectContaining({
        id: cardId,
        stopId: stop.id,
        linkedFuelingId: fill.id,
        unmatchedReason: null,
      }),
    ]);
    expect((await store.list(fleetId, { source: 'detected' }, 25)).data).toEqual([
      expect.objectContaining({ id: fill.id, linkedFuelingId: cardId, unmatchedReason: null }),
    ]);
  });
});
