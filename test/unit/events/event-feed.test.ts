import { describe, expect, it } from 'vitest';
import { eventBody } from '#shared/events/domain/envelope.ts';
import { EVENT_RETENTION_DAYS } from '#shared/events/domain/events.ts';
import type { EventFeedStore, StoredEvent } from '#shared/events/store/event-feed.ts';
import { storedEnvelope } from '#shared/events/store/events.ts';
import { getEvent } from '#shared/events/usecases/event-feed.ts';
import { buildEvent } from '#shared/events/usecases/event-recording.ts';
import { idTimeMs, newId } from '#shared/kernel/ids.ts';
import { ApiError } from '#shared/platform/errors.ts';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const WINDOW_MS = EVENT_RETENTION_DAYS * 86_400_000;

describe('eventBody', () => {
  it('writes the envelope members in the spec’s order whatever order the object has', () => {
    const event = buildEvent('prod', newId('fleet'), 3, 'vehicle.offline', { b: 1, a: 2 }, T0);
    const { data, fleet_id, ...rest } = event;
    const shuffled = { data, fleet_id, ...rest };
    const body = eventBody(shuffled);
    expect(Object.keys(JSON.parse(body))).toEqual([
      'id',
      'type',
      'api_version',
      'sandbox',
      'sequence',
      'occurred_at',
      'fleet_id',
      'data',
    ]);
    // data keeps its builder's order; a stored item reads back to the same text.
    expect(body).toContain('"data":{"b":1,"a":2}');
    expect(JSON.stringify(storedEnvelope({ envelope: {}, body }))).toBe(body);
  });
});

describe('idTimeMs', () => {
  it('reads back the millisecond an id was minted at', () => {
    expect(idTimeMs(newId('event', T0))).toBe(T0);
    expect(idTimeMs(newId('event', 1))).toBe(1);
  });
});

describe('getEvent', () => {
  const fleetId = newId('fleet');
  const event = buildEvent('prod', fleetId, 1, 'vehicle.online', {}, T0);
  const stored: StoredEvent & { fleetId: string } = {
    envelope: event,
    fleetId,
    expiresAt: Math.floor((T0 + WINDOW_MS) / 1000),
  };
  const feed: EventFeedStore = {
    list: async () => ({ data: [], next_cursor: null }),
    find: async (id) => (id === event.id ? stored : null),
  };
  const at = (nowMs: number) => ({ feed, now: () => nowMs });
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: unknown) => (error instanceof ApiError ? error.code : String(error)),
    );

  it('answers the fleet’s own event inside the window and 410 from its last second on', async () => {
    expect(await getEvent(at(T0 + WINDOW_MS - 1000), fleetId, event.id)).toBe(event);
    expect(await codeOf(getEvent(at(T0 + WINDOW_MS), fleetId, event.id))).toBe('event_expired');
  });

  it('answers an id the fleet does not hold by the id alone: 404 while it could be live, 410 after', async () => {
    const otherFleet = newId('fleet');
    expect(await codeOf(getEvent(at(T0 + 1000), otherFleet, event.id))).toBe('resource_not_found');
    expect(await codeOf(getEvent(at(T0 + WINDOW_MS), otherFleet, event.id))).toBe('event_expired');
    expect(await codeOf(getEvent(at(T0 + 1000), fleetId, newId('event', T0)))).toBe('resource_not_found');
    expect(await codeOf(getEvent(at(T0 + WINDOW_MS), fleetId, newId('event', T0)))).toBe('event_expired');
  });
});
