import { describe, expect, expectTypeOf, it } from 'vitest';
import { EVENT_CATALOG, type EventType } from '#shared/events/domain/events.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import { sendTestEvent } from '#shared/webhooks/usecases/webhook-delivery.ts';
import {
  isWebhookEventType,
  parseWebhookEvent,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  WebhookPayloadError,
} from '../../../clients/typescript/src/index.ts';

const NOW_MS = Date.parse('2026-11-21T12:00:00Z');
const endpoint: WebhookEndpoint = {
  id: 'whk_01KAPX2M7G3R5T8V0W2Y4Z6B8D',
  owner: { kind: 'fleet', fleetId: 'flt_01KAPX2M7G3R5T8V0W2Y4Z6B8D' },
  url: 'https://receiver.test/hook',
  eventTypes: ['*'],
  description: null,
  status: 'active',
  disabledReason: null,
  secrets: [{ value: 'whsec_current', expiresAtMs: null }],
  consecutiveFailedDeliveries: 0,
  healthySinceMs: NOW_MS,
  createdAt: '2026-10-01T00:00:00.000000Z',
  updatedAt: '2026-10-01T00:00:00.000000Z',
};

/** The raw body a test send of `type` POSTs, as a receiver gets it. */
async function testSendBody(type: EventType): Promise<string> {
  let sent = '';
  await sendTestEvent(
    {
      now: () => NOW_MS,
      send: async (_url, body) => {
        sent = body;
        return { ok: true, statusCode: 204, durationMs: 1, error: null };
      },
    },
    endpoint,
    type,
    false,
  );
  return sent;
}

/** What a receiver writes: one branch per type, each reading members only that type's `data` has. */
function summary(event: WebhookEvent): string {
  switch (event.type) {
    case 'fueling.matched':
      return `${event.data.station.name}: ${event.data.gallons ?? '?'} gal`;
    case 'vehicle.fuel_low':
      return `${event.data.external_ref ?? event.data.vehicle_id} at ${event.data.fuel_level_percent} %`;
    case 'fleet.provisioned':
      return `fleet ${event.data.fleet.name}`;
    case 'trip.cancelled':
      return `trip ${event.data.trip_id} ${event.data.status}${event.data.reason ? `: ${event.data.reason}` : ''}`;
    default:
      return event.type;
  }
}

describe('the client’s webhook event types', () => {
  it('knows every type of the catalog, generated from openapi.json', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual(EVENT_CATALOG.map(({ type }) => type));
    expectTypeOf<WebhookEventType>().toEqualTypeOf<(typeof WEBHOOK_EVENT_TYPES)[number]>();
    expectTypeOf<WebhookEventType>().toEqualTypeOf<EventType>();
  });

  it('narrows an event by its type: each branch sees that type’s data (checked by tsc)', () => {
    expectTypeOf<WebhookEventOf<'vehicle.fuel_low'>['type']>().toEqualTypeOf<'vehicle.fuel_low'>();
    expectTypeOf<WebhookEventOf<'vehicle.fuel_low'>['data']['fuel_level_percent']>().toEqualTypeOf<number>();
    expectTypeOf<WebhookEventOf<'fueling.matched'>['data']['gallons']>().toEqualTypeOf<number | null>();
    expectTypeOf<WebhookEventOf<'trip.started'>['data']['status']>().toEqualTypeOf<'active'>();
    expectTypeOf<Extract<WebhookEvent, { type: 'vehicle.offline' }>>().toEqualTypeOf<
      WebhookEventOf<'vehicle.offline'>
    >();
    const offline = (event: WebhookEventOf<'vehicle.offline'>) =>
      // @ts-expect-error vehicle.offline's data has no station: only a narrowed fueling.matched does.
      event.data.station;
    expect(typeof offline).toBe('function');
  });

  it.each(EVENT_CATALOG.map(({ type }) => type))(
    '%s: parses a delivered body into the event of its type',
    async (type) => {
      const body = await testSendBody(type);
      const event = parseWebhookEvent(body);
      expect(event.type).toBe(type);
      expect(event).toEqual(JSON.parse(body));
      expect(summary(event).length).toBeGreaterThan(0);
    },
  );

  it('reads each type’s own members once narrowed', async () => {
    expect(summary(parseWebhookEvent(await testSendBody('fueling.matched')))).toBe(
      "Love's Travel Stop #284 (I-40, Amarillo): 113.4 gal",
    );
    expect(summary(parseWebhookEvent(await testSendBody('vehicle.fuel_low')))).toBe('TRUCK-1042 at 19.6 %');
    expect(summary(parseWebhookEvent(await testSendBody('trip.cancelled')))).toMatch(
      /^trip trip_\w{26} cancelled: Load re-tendered to another carrier$/,
    );
  });

  it('refuses what is not an envelope, or a type newer than the client', async () => {
    const body = JSON.parse(await testSendBody('vehicle.online'));
    expect(() => parseWebhookEvent('not json')).toThrow(WebhookPayloadError);
    expect(() => parseWebhookEvent('[]')).toThrow(/not an event envelope/);
    expect(() => parseWebhookEvent(JSON.stringify({ ...body, data: 'x' }))).toThrow(/not an event envelope/);
    expect(() => parseWebhookEvent(JSON.stringify({ ...body, type: 'vehicle.teleported' }))).toThrow(
      'Unknown event type "vehicle.teleported": newer than this client; regenerate it from openapi.json.',
    );
    expect(isWebhookEventType('vehicle.online')).toBe(true);
    expect(isWebhookEventType('vehicle.teleported')).toBe(false);
    expect(isWebhookEventType(7)).toBe(false);
  });
});
