import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import { createIntegrationFleetStateStore } from '#shared/integration-health/store/integration-fleet-state.ts';
import { dynamoItemBytes } from '#shared/table/item-size.ts';
import { shownStopsAfter } from '#shared/tracking/domain/shown-stops.ts';
import { initialTrackerState } from '#shared/tracking/domain/tracker.ts';
import { emptyTracking, type VehicleTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { createVehicleTrackingStore, trackingKey } from '#shared/tracking/store/vehicle-tracking.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';

/**
 * The tracking item keeps the detection state, the session and the outbox packed (deflated JSON):
 * the worker rewrites it every cycle and a write is billed per KB of the item. What must hold:
 * everything round-trips, the item of a guided truck stays within one write unit, items written
 * before the packing are still read, and the health scorecard still sees the session's status.
 */
const client = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = await createTestTable(client, 'vehicle-tracking');
});
afterAll(() => deleteTestTable(client, table));

const NOW = Date.parse('2026-11-21T12:00:00Z');

function guidedSession(vehicleId: string): GuidanceSession {
  const stop = (n: number) => ({
    id: `gds_01M85A6M88AM3X7HG4QR1B2DV${n}`,
    stationId: `stn_8B3SHZCVHB6WS9AHTJ951S14G${n}`,
    name: `Pilot Flying J Travel Center #${400 + n}`,
    chain: 'Pilot Flying J',
    latitude: 34.3339 + n,
    longitude: -97.16283 - n,
    address: `I-35 exit ${40 + n}, Ardmore, OK 73401`,
    milesAhead: 122.1 * n,
    detourMiles: 0.4,
    gallonsToBuy: 61.5,
    price: 3.279,
    discount: 0.15,
    netPrice: 3.129,
    priceIsStale: false,
    reason: `Cheapest diesel in the next 412 miles: $3.13 net (15¢ fleet discount), 0.2 miles off the route. Buy 61.5 gal to reach stop ${n + 1}.`,
    recommendedAtMs: NOW,
    acknowledgedAtMs: null,
  });
  return {
    id: 'gd_01M85A6M88B825E73G1NXK5YYD',
    vehicleId,
    status: 'active',
    endReason: null,
    phase: 'stop_recommended',
    destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver, CO' },
    minArrivalFuelPercent: 20,
    stops: [stop(1), stop(2)],
    skipped: [],
    announced: [1, 2].map((n) => ({ stationId: stop(n).stationId, gallonsToBuy: 61.5, netPrice: 3.129 })),
    approachedStopIds: [],
    planReason: '2 stops, 123 gal for $384.87; arrives at Denver, CO with 20% in the tank.',
    remainingMiles: 894,
    projectedArrivalFuelPercent: 20.1,
    fuel: { percent: 41.5, source: 'reported', reportedAtMs: NOW },
    position: { latitude: 33.1, longitude: -97.1, recordedAtMs: NOW },
    forceReplan: false,
    revision: 3,
    createdAtMs: NOW - 3_600_000,
    updatedAtMs: NOW,
    planUpdatedAtMs: NOW - 600_000,
    endedAtMs: null,
    billingAccountId: 'cmp_01M85A6M88B825E73G1NXK5YYD',
  };
}

describe('the tracking item', () => {
  it('round-trips a guided truck’s state and keeps its item within one write unit', async () => {
    const store = createVehicleTrackingStore(client, table);
    const tracking: VehicleTracking = {
      ...emptyTracking('flt_trk', 'veh_trk1'),
      tracker: {
        ...initialTrackerState(),
        processedThroughMs: NOW,
        lastFix: {
          recordedAtMs: NOW,
          latitude: 33.1,
          longitude: -97.1,
          fuelLevelPercent: 41,
          speedKmh: 96.56,
        },
        recentLevels: [0, 1, 2, 3, 4].map((i) => ({ atMs: NOW - i * 60_000, percent: 41 + i / 10 })),
        lastReport: { percent: 41.2, atMs: NOW, greatCircleMilesSince: 0 },
      },
      session: guidedSession('veh_trk1'),
      lastSeenMs: NOW,
    };
    const stored = await store.save(tracking);
    expect(stored?.version).toBe(1);
    const read = await store.get('flt_trk', 'veh_trk1');
    expect(read).toEqual(stored);
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: trackingKey('flt_trk', 'veh_trk1') }),
    );
    expect(dynamoItemBytes(Item as Record<string, unknown>)).toBeLessThanOrEqual(1024);
    expect(Item?.session_status).toBe('active');

    // With the two stops of a plan just replaced (kept 6 hours for a fill there), still one unit.
    const replaced = guidedSession('veh_trk1');
    const renamed = replaced.stops.map((stop, i) => ({ ...stop, id: `${stop.id.slice(0, -1)}${i + 5}` }));
    const withShown = await store.save({
      ...read,
      session: { ...replaced, stops: renamed },
      shownStops: shownStopsAfter([], read.session, { ...replaced, stops: renamed }, NOW),
    });
    expect(withShown?.shownStops).toHaveLength(2);
    expect(await store.get('flt_trk', 'veh_trk1')).toEqual(withShown);
    const { Item: withShownItem } = await client.send(
      new GetCommand({ TableName: table, Key: trackingKey('flt_trk', 'veh_trk1') }),
    );
    expect(dynamoItemBytes(withShownItem as Record<string, unknown>)).toBeLessThanOrEqual(1024);

    // The outbox rides in the blob too, and clearing it keeps the rest (the shown stops included).
    const withOutbox = await store.save({
      ...(withShown as VehicleTracking),
      session: read.session,
      outbox: {
        events: [{ type: 'vehicle.online', data: { vehicle_id: 'veh_trk1' }, dedupeKey: 'k1' }],
        fuelings: [],
        archive: [],
      },
    });
    await store.clearOutbox(withOutbox as VehicleTracking);
    const cleared = await store.get('flt_trk', 'veh_trk1');
    expect(cleared.outbox).toBeNull();
    expect(cleared.session).toEqual(read.session);
    expect(cleared.shownStops).toEqual(withShown?.shownStops);
    expect(cleared.version).toBe(3);
  });

  it('reads an item written before the packing, and the health scorecard counts both kinds as guided', async () => {
    const store = createVehicleTrackingStore(client, table);
    const session = guidedSession('veh_trk2');
    await client.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...trackingKey('flt_trk', 'veh_trk2'),
          tracker: initialTrackerState(),
          session,
          last_seen_ms: NOW,
          offline: false,
          indexed_seen_ms: NOW,
          outbox: null,
          version: 7,
        },
      }),
    );
    const read = await store.get('flt_trk', 'veh_trk2');
    expect(read).toMatchObject({ session, version: 7, lastSeenMs: NOW, outbox: null });
    // Its outbox carried out (the sweep may do it before any save): packed, and still guided.
    await store.clearOutbox(read);
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: trackingKey('flt_trk', 'veh_trk2') }),
    );
    expect(Item).toMatchObject({ session_status: 'active', version: 7 });
    expect(Item?.session).toBeUndefined();
    for (const vehicleId of ['veh_trk1', 'veh_trk2']) {
      await client.send(
        new PutCommand({
          TableName: table,
          Item: {
            pk: 'FLEET#flt_trk',
            sk: `VEH#${vehicleId}`,
            status: 'active',
            tank_size_gallons: 150,
            estimated_mpg: 6.5,
          },
        }),
      );
    }
    const state = await createIntegrationFleetStateStore(client, table).vehicleState('flt_trk', NOW - 60_000);
    expect(state.vehiclesWithGuidance).toBe(2);
  });
});
