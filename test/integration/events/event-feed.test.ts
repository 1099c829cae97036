import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_RETENTION_DAYS, type EventType, MAX_EVENT_SEQUENCE } from '#shared/events/domain/events.ts';
import { sequenceKey, storedEnvelope, toEventItem } from '#shared/events/store/events.ts';
import { getEvent, listEvents } from '#shared/events/usecases/event-feed.ts';
import { buildEvent } from '#shared/events/usecases/event-recording.ts';
import { eventFeedDeps } from '#shared/events/wiring/events.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { dynamoItemBytes } from '#shared/table/item-size.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import { testEventSamples } from '#shared/webhooks/usecases/webhook-test-samples.ts';
import { deliveryDeps, eventRecorder } from '#shared/webhooks/wiring/webhooks.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

const client = testDocumentClient();
let tableName: string;
const DAY_MS = 86_400_000;
const START_MS = Date.parse('2026-11-21T12:00:00Z');

beforeAll(async () => {
  tableName = await createTestTable(client, 'event-feed');
});
afterAll(() => deleteTestTable(client, tableName));

const endpointFor = (fleetId: string): WebhookEndpoint => ({
  id: newId('webhookEndpoint'),
  owner: { kind: 'fleet', fleetId },
  url: 'https://93.184.216.34/hook',
  eventTypes: ['*'],
  description: null,
  status: 'active',
  disabledReason: null,
  secrets: [{ value: 'whsec_x', expiresAtMs: null }],
  consecutiveFailedDeliveries: 0,
  healthySinceMs: 0,
  createdAt: '2026-11-21T00:00:00.000000Z',
  updatedAt: '2026-11-21T00:00:00.000000Z',
});

/** One fleet's stage as the composition root wires it, on a clock the test moves. */
function stage() {
  const clock = fixedClock(START_MS);
  const infra = testInfrastructure({ tableName, clock });
  return { clock, infra, feed: eventFeedDeps(infra), recorder: eventRecorder(infra) };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw error;
  return error;
}

describe('the events feed', () => {
  it('lists a fleet’s events in sequence order after a given sequence, a page at a time, filtered by type', async () => {
    const { feed, recorder, clock } = stage();
    const fleetId = newId('fleet');
    const types = ['guidance.updated', 'vehicle.fuel_low', 'guidance.updated', 'vehicle.offline'] as const;
    for (const type of types) {
      await recorder.record(fleetId, type, {});
      clock.advance(1000);
    }
    // Another fleet's events never show.
    await recorder.record(newId('fleet'), 'guidance.updated', {});

    const all = await listEvents(feed, fleetId, {}, 25, undefined);
    expect(all.data.map((e) => [e.sequence, e.type])).toEqual(types.map((type, i) => [i + 1, type]));
    expect(all.next_cursor).toBeNull();

    const after = await listEvents(feed, fleetId, { afterSequence: 2 }, 25, undefined);
    expect(after.data.map((e) => e.sequence)).toEqual([3, 4]);
    // Past the last one, and past the highest sequence a key can hold: nothing (never all again).
    expect((await listEvents(feed, fleetId, { afterSequence: 4 }, 25, undefined)).data).toEqual([]);
    expect(
      (await listEvents(feed, fleetId, { afterSequence: MAX_EVENT_SEQUENCE }, 25, undefined)).data,
    ).toEqual([]);

    const first = await listEvents(feed, fleetId, {}, 3, undefined);
    expect(first.data.map((e) => e.sequence)).toEqual([1, 2, 3]);
    const second = await listEvents(feed, fleetId, {}, 3, first.next_cursor ?? undefined);
    expect(second.data.map((e) => e.sequence)).toEqual([4]);
    expect(second.next_cursor).toBeNull();

    const guidance = await listEvents(feed, fleetId, { type: 'guidance.updated' }, 1, undefined);
    expect(guidance.data.map((e) => e.sequence)).toEqual([1]);
    const more = await listEvents(
      feed,
      fleetId,
      { type: 'guidance.updated' },
      1,
      guidance.next_cursor ?? undefined,
    );
    expect(more.data.map((e) => e.sequence)).toEqual([3]);

    // A cursor belongs to its filter: another filter refuses it.
    const refused = await failure(listEvents(feed, fleetId, {}, 1, guidance.next_cursor ?? undefined));
    expect(refused.code).toBe('invalid_cursor');
  });

  it('lists and filters by type the events stored before the envelope map was dropped, beside new ones', async () => {
    const { feed, recorder, infra } = stage();
    const fleetId = newId('fleet');
    // Sequence 1 as the oldest items hold it (the map only), 2 as the next ones (map and text).
    const legacy = (sequence: number, type: string, withBody: boolean) => {
      const event = buildEvent('prod', fleetId, sequence, type as EventType, {}, START_MS + sequence);
      const { event_type: _type, ...item } = toEventItem(event);
      const { body: _body, ...mapOnly } = item;
      return { event, item: withBody ? { ...item, envelope: event } : { ...mapOnly, envelope: event } };
    };
    const oldest = legacy(1, 'guidance.updated', false);
    const older = legacy(2, 'vehicle.offline', true);
    for (const { item } of [oldest, older]) {
      await infra.client.send(new PutCommand({ TableName: tableName, Item: item }));
    }
    await infra.client.send(
      new PutCommand({ TableName: tableName, Item: { ...sequenceKey(fleetId), value: 2 } }),
    );
    const recorded = await recorder.record(fleetId, 'guidance.updated', {});
    expect(recorded.sequence).toBe(3);

    const all = await listEvents(feed, fleetId, {}, 25, undefined);
    expect(all.data.map((e) => [e.sequence, e.type])).toEqual([
      [1, 'guidance.updated'],
      [2, 'vehicle.offline'],
      [3, 'guidance.updated'],
    ]);
    const guidance = await listEvents(feed, fleetId, { type: 'guidance.updated' }, 25, undefined);
    expect(guidance.data.map((e) => e.id)).toEqual([oldest.event.id, recorded.id]);
    const offline = await listEvents(feed, fleetId, { type: 'vehicle.offline' }, 25, undefined);
    expect(offline.data.map((e) => e.id)).toEqual([older.event.id]);
  });

  it('stores an event once, as its delivered text: every type’s fullest data fits one write unit, a matched fill and a provisioned fleet two', () => {
    const fleetId = newId('fleet');
    const samples = Object.entries(testEventSamples(START_MS, fleetId));
    expect(samples.length).toBeGreaterThan(10);
    // fueling.matched states the fill's and the stop's prices on both bases (net and effective):
    // over 1 KB with the catalog's longest station names, and written once per fill, not per breadcrumb.
    // fleet.provisioned carries the whole Fleet (its fuel card program, its truck profile): once per fleet.
    const twoUnits = new Set(['fueling.matched', 'fleet.provisioned']);
    const writeUnits = (type: string) => (twoUnits.has(type) ? 2 : 1);
    for (const [type, data] of samples) {
      const event = buildEvent('prod', fleetId, 123_456, type as EventType, data, START_MS);
      const item = toEventItem(event);
      expect(item).not.toHaveProperty('envelope');
      expect(storedEnvelope(item)).toEqual(event);
      expect(dynamoItemBytes(item), type).toBeLessThanOrEqual(1024 * writeUnits(type));
      expect(dynamoItemBytes(item), type).toBeGreaterThan(1024 * (writeUnits(type) - 1));
    }
  });

  it('answers an event with the exact text its webhook deliveries carry', async () => {
    const { feed, recorder, infra } = stage();
    const fleetId = newId('fleet');
    const deliveries = deliveryDeps(infra);
    const endpoint = endpointFor(fleetId);
    await deliveries.endpoints.create(endpoint);
    // Members in an order DynamoDB would not keep: nested objects, numbers, nulls.
    const event = await recorder.record(fleetId, 'guidance.stop_approaching', {
      vehicle_id: newId('vehicle'),
      zeta: 1,
      station: { name: 'Love’s #241', price: 3.5, brand: null },
      alpha: [2.25, { z: true, a: false }],
    });

    const log = await deliveries.deliveries.list(
      { kind: 'fleet', fleetId },
      endpoint.id,
      undefined,
      10,
      undefined,
    );
    const delivered = log.data.map((d) => d.body);
    expect(delivered).toHaveLength(1);

    const fetched = await getEvent(feed, fleetId, event.id);
    expect(JSON.stringify(fetched)).toBe(delivered[0]);
    const listed = await listEvents(feed, fleetId, {}, 25, undefined);
    expect(JSON.stringify(listed.data[0])).toBe(delivered[0]);
  });

  it('is 404 for an id of another fleet or no event, and 410 event_expired past the replay window', async () => {
    const { feed, recorder, clock } = stage();
    const fleetId = newId('fleet');
    const event = await recorder.record(fleetId, 'vehicle.online', {});

    const otherFleet = await failure(getEvent(feed, newId('fleet'), event.id));
    expect(otherFleet.status).toBe(404);
    expect(otherFleet.code).toBe('resource_not_found');
    const unknown = await failure(getEvent(feed, fleetId, newId('event', clock.now())));
    expect(unknown.code).toBe('resource_not_found');

    clock.advance(EVENT_RETENTION_DAYS * DAY_MS - 1000);
    expect((await getEvent(feed, fleetId, event.id)).id).toBe(event.id);
    expect((await listEvents(feed, fleetId, {}, 25, undefined)).data).toHaveLength(1);

    clock.advance(1000);
    const expired = await failure(getEvent(feed, fleetId, event.id));
    expect(expired.status).toBe(410);
    expect(expired.code).toBe('event_expired');
    expect(expired.detail).toContain(`${EVENT_RETENTION_DAYS}-day`);
    // Still in the table (TTL removes items late), but out of the window: the list leaves it out.
    expect((await listEvents(feed, fleetId, {}, 25, undefined)).data).toEqual([]);
    // An id minted before the window, held by nobody (removed by TTL): 410 as well.
    const removed = await failure(getEvent(feed, fleetId, newId('event', START_MS - 1000)));
    expect(removed.code).toBe('event_expired');
  });
});
