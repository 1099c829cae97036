import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeFleetKey,
  createIntegrationCounterStore,
} from '#shared/integration-health/store/integration-counters.ts';
import { createIntegrationSnapshotStore } from '#shared/integration-health/store/integration-snapshots.ts';
import { fleetScorecard } from '#shared/integration-health/usecases/integration-health.ts';
import { healthHistory } from '#shared/integration-health/usecases/integration-health-history.ts';
import { snapshotFleetHealth } from '#shared/integration-health/usecases/integration-health-snapshot.ts';
import {
  healthSnapshotDeps,
  integrationHealthDeps,
  integrationHistoryDeps,
} from '#shared/integration-health/wiring/integration-health.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { trackingKey } from '#shared/tracking/store/vehicle-tracking.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import { deliveryDeps, webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * The integration health aggregates against DynamoDB Local, through the composition root: the
 * hourly counters as ingest and the dispatcher write them, the scorecard read from them, the daily
 * snapshot job and the history's windows.
 */
const client = testDocumentClient();
const NOW = Date.parse('2026-11-23T14:30:00Z');
const DAY_MS = 86_400_000;
const clock = fixedClock(NOW);
let table: string;
let infra: TestInfrastructure;

beforeAll(async () => {
  table = await createTestTable(client, 'integration-health');
  infra = testInfrastructure({ tableName: table, clock });
});
afterAll(() => deleteTestTable(client, table));

async function truck(fleetId: string, profile: boolean) {
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `HLT-${Math.random().toString(36).slice(2, 8)}`,
    ...(profile ? { tank_size_gallons: 200, estimated_mpg: 6.5 } : {}),
  });
  return vehicle.id;
}

const crumbs = (vehicleId: string, count: number, level: boolean) =>
  Array.from({ length: count }, (_, i) => ({
    vehicle_id: vehicleId,
    latitude: 35 + i / 1_000,
    longitude: -97,
    recorded_at: new Date(NOW - (count - i) * 120_000).toISOString(),
    ...(level ? { fuel_level_percent: 70 } : {}),
  }));

function endpoint(fleetId: string): WebhookEndpoint {
  return {
    id: newId('webhookEndpoint'),
    owner: { kind: 'fleet', fleetId },
    url: 'https://hooks.example.com/health',
    eventTypes: ['*'],
    description: null,
    status: 'active',
    disabledReason: null,
    secrets: [{ value: 'whsec_test', expiresAtMs: null }],
    consecutiveFailedDeliveries: 0,
    healthySinceMs: NOW,
    createdAt: new Date(NOW).toISOString(),
    updatedAt: new Date(NOW).toISOString(),
  };
}

describe('the hourly health counters', () => {
  it('take one write per ingest request: accepted, with a level, rejected and the cadence gaps', async () => {
    const fleetId = newId('fleet');
    const a = await truck(fleetId, true);
    const b = await truck(fleetId, true);
    const first = await ingestLocations(ingestDeps(infra), fleetId, [
      ...crumbs(a, 5, true),
      ...crumbs(b, 3, false),
      {
        vehicle_id: newId('vehicle'),
        latitude: 35,
        longitude: -97,
        recorded_at: new Date(NOW).toISOString(),
      },
    ]);
    expect(first).toMatchObject({ accepted: 8, rejected: 1 });
    await ingestLocations(ingestDeps(infra), fleetId, [
      { vehicle_id: a, latitude: 36, longitude: -97, recorded_at: new Date(NOW).toISOString() },
    ]);

    const hours = await integrationHealthDeps(infra).counters.hours(fleetId, NOW - 23 * 3_600_000, NOW);
    expect(hours).toHaveLength(1);
    expect(hours[0]).toMatchObject({
      hour: '2026-11-23T14',
      requests: 2,
      breadcrumbs: 9,
      withLevel: 5,
      rejected: 1,
      // A: 4 gaps of 2 minutes, B: 2; the second request's single breadcrumb comes 2 minutes
      // after A's latest position: its gap is counted too.
      gapCount: 7,
      gapMsSum: 7 * 120_000,
    });
    const { Item } = await client.send(
      new GetCommand({
        TableName: table,
        Key: activeFleetKey('2026-11-23', fleetId),
      }),
    );
    expect(Item?.fleet_id).toBe(fleetId);
    expect(await healthSnapshotDeps(infra).counters.activeFleets('2026-11-23')).toContain(fleetId);
  });

  it('count webhook delivery attempts per endpoint and hour', async () => {
    const fleetId = newId('fleet');
    // The dispatcher's counter, as wired for it.
    const dispatcherCounters = deliveryDeps(infra).healthCounters;
    for (const ok of [true, true, false])
      await dispatcherCounters.recordDeliveryAttempt(fleetId, 'whk_a', NOW, ok);
    await dispatcherCounters.recordDeliveryAttempt(fleetId, 'whk_b', NOW - 3_600_000, false);
    const hours = await integrationHealthDeps(infra).counters.hours(fleetId, NOW - 2 * 3_600_000, NOW);
    expect(hours.map((h) => [h.hour, Object.fromEntries(h.deliveries)])).toEqual([
      ['2026-11-23T13', { whk_b: { attempts: 1, succeeded: 0 } }],
      ['2026-11-23T14', { whk_a: { attempts: 3, succeeded: 2 } }],
    ]);
  });
});

describe('the scorecard, from the aggregates', () => {
  it('counts vehicles, breadcrumbs, webhooks and guidance, and judges the checks', async () => {
    const fleetId = newId('fleet');
    const a = await truck(fleetId, true);
    const b = await truck(fleetId, false);
    await truck(fleetId, true); // never reports
    await ingestLocations(ingestDeps(infra), fleetId, [...crumbs(a, 10, true), ...crumbs(b, 10, false)]);
    const hook = endpoint(fleetId);
    await webhookEndpointDeps(infra).endpoints.create(hook);
    const counters = createIntegrationCounterStore(client, table);
    for (let i = 0; i < 4; i += 1) await counters.recordDeliveryAttempt(fleetId, hook.id, NOW, i > 0);
    // A's guidance session, as the guidance worker stores it (only its status is read).
    await client.send(
      new PutCommand({
        TableName: table,
        Item: { ...trackingKey(fleetId, a), session: { id: 'gd_x', status: 'active' }, version: 1 },
      }),
    );

    const card = await fleetScorecard(
      integrationHealthDeps(infra),
      fleetId,
      new Date(NOW - 10 * DAY_MS).toISOString(),
    );

    expect(card.counts).toEqual({
      vehicles_active: 3,
      vehicles_reporting_24h: 2,
      vehicles_with_fuel_level: 1,
      vehicles_missing_tank_or_mpg: 1,
      breadcrumbs_24h: 20,
      rejected_items_24h: 0,
      fuelings_reported_7d: 0,
      fuelings_verified_7d: 0,
    });
    expect(card.webhooks).toMatchObject({
      active_endpoints: 1,
      deliveries_24h: 4,
      succeeded_24h: 3,
      success_rate: 0.75,
      failing_endpoints: [],
    });
    const status = Object.fromEntries(card.checks.map((c) => [c.id, c.status]));
    expect(status).toEqual({
      // 2 vehicles each reporting every 2 minutes for 20 minutes: judged while they reported.
      breadcrumb_cadence: 'pass',
      fuel_level_coverage: 'warn',
      vehicle_profiles: 'fail',
      rejected_items: 'pass',
      silent_vehicles: 'fail',
      webhook_delivery: 'warn',
      guidance_in_use: 'pass',
      fuelings_reported: 'warn',
      // No card purchase reported: nothing to verify.
      purchases_verifiable: 'pass',
      key_age: 'pass',
    });
    expect(card.next_steps[0]).toMatchObject({ severity: 'high', check_id: 'silent_vehicles' });
    expect(card.window).toEqual({
      from: '2026-11-22T15:00:00.000000Z',
      to: '2026-11-23T14:30:00.000000Z',
      hours: 24,
    });
  });
});

describe('the breadcrumb cadence, measured across requests', () => {
  it('reads a truck reporting once a minute for 3 hours of the day, one breadcrumb a request, as about 1 minute', async () => {
    // Its own clock: the requests arrive a minute apart, as a real-time integration sends them.
    const startMs = Date.parse('2026-11-23T09:00:00Z');
    const ownClock = fixedClock(startMs);
    const own = testInfrastructure({ tableName: table, clock: ownClock });
    const fleetId = newId('fleet');
    const { vehicle } = await createVehicle({ vehicles: vehicleStore(own), clock: ownClock }, fleetId, {
      external_ref: 'EVERY-MINUTE',
      tank_size_gallons: 200,
      estimated_mpg: 6.5,
    });
    for (let minute = 0; minute < 180; minute += 1) {
      const atMs = startMs + minute * 60_000;
      ownClock.set(atMs);
      const sent = await ingestLocations(ingestDeps(own), fleetId, [
        {
          vehicle_id: vehicle.id,
          latitude: 35 + minute / 1_000,
          longitude: -97,
          recorded_at: new Date(atMs).toISOString(),
          fuel_level_percent: 80 - minute / 10,
        },
      ]);
      expect(sent.accepted).toBe(1);
    }
    // The scorecard read that evening: 180 breadcrumbs over a 24-hour window.
    ownClock.set(Date.parse('2026-11-23T20:00:00Z'));

    const card = await fleetScorecard(integrationHealthDeps(own), fleetId, '2026-11-01T00:00:00.000000Z');

    expect(card.counts.breadcrumbs_24h).toBe(180);
    expect(card.checks.find((c) => c.id === 'breadcrumb_cadence')).toMatchObject({
      status: 'pass',
      observed: '1 min',
      detail:
        'About 1 minute between consecutive breadcrumbs of a vehicle while it was reporting (gaps over an hour left out).',
    });
  });
});

describe('the snapshot job and the history', () => {
  it('snapshots each active fleet today, and the history answers the days asked for, oldest first', async () => {
    const fleetId = newId('fleet');
    const a = await truck(fleetId, true);
    await ingestLocations(ingestDeps(infra), fleetId, crumbs(a, 5, true));
    const snapshots = createIntegrationSnapshotStore(client, table);
    // Earlier days, as earlier runs of the job left them.
    for (const daysAgo of [1, 40, 95]) {
      const day = new Date(NOW - daysAgo * DAY_MS).toISOString().slice(0, 10);
      await snapshots.put({
        fleetId,
        day,
        checkedAt: `${day}T23:55:00.000000Z`,
        score: 50 + daysAgo / 5,
        grade: 'F',
        checks: { breadcrumb_cadence: 'pass' },
        vehiclesActive: 1,
        vehiclesReporting24h: 1,
        breadcrumbs24h: 100,
      });
    }
    const errors: unknown[] = [];
    const run = await snapshotFleetHealth({
      ...healthSnapshotDeps(infra),
      onError: (_f, e) => errors.push(e),
    });
    expect(errors).toEqual([]);
    expect(run.snapshots).toBeGreaterThanOrEqual(1);

    const caller = {
      principal: {
        ownerType: 'company' as const,
        partnerId: null,
        ownFleetId: fleetId,
        keyCreatedAt: '2026-11-01T00:00:00.000000Z',
      },
      actingFleetId: fleetId,
    };
    const month = await healthHistory(integrationHistoryDeps(infra), caller, { days: 30 });
    expect(month).toMatchObject({ fleet_id: fleetId, days: 30, from: '2026-10-25', to: '2026-11-23' });
    expect(month.snapshots.map((s) => s.day)).toEqual(['2026-11-22', '2026-11-23']);
    const today = month.snapshots[1];
    expect(today).toMatchObject({ breadcrumbs_24h: 5, vehicles_active: 1, vehicles_reporting_24h: 1 });
    // 5 breadcrumbs 2 minutes apart: a 2-minute cadence while the truck reported.
    expect(today?.checks).toMatchObject({ breadcrumb_cadence: 'pass', key_age: 'warn' });

    const quarter = await healthHistory(integrationHistoryDeps(infra), caller, { days: 90 });
    expect(quarter.snapshots.map((s) => s.day)).toEqual(['2026-10-14', '2026-11-22', '2026-11-23']);
    const one = await healthHistory(integrationHistoryDeps(infra), caller, { days: 1 });
    expect(one.snapshots.map((s) => s.day)).toEqual(['2026-11-23']);

    // A second run the same day replaces today's snapshot rather than adding one.
    await snapshotFleetHealth({ ...healthSnapshotDeps(infra), onError: (_f, e) => errors.push(e) });
    expect((await healthHistory(integrationHistoryDeps(infra), caller, { days: 1 })).snapshots).toHaveLength(
      1,
    );
  });
});
