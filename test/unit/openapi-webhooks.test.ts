import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dataFieldsOf } from '#shared/events/api/event-data-schemas.ts';
import { EVENT_CATALOG, type EventType } from '#shared/events/domain/events.ts';
import { eventTypesResource } from '#shared/webhooks/api/serializers.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import { sendTestEvent } from '#shared/webhooks/usecases/webhook-delivery.ts';
import {
  eventEnvelopeProblems,
  publishedWebhookTypes,
  webhookEnvelopeProblems,
} from '../support/published-events.ts';

/**
 * The `webhooks` section of openapi.json: one typed POST per event type, and the test sends (the
 * samples a receiver is built against) exactly as published. Real deliveries are checked the same
 * way by the integration and e2e suites (guidance simulation, stop approach, webhook delivery).
 */
const document = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../openapi.json', import.meta.url)), 'utf8'),
  // biome-ignore lint/suspicious/noExplicitAny: the test walks a generated document by member names.
) as Record<string, any>;
const schemas = document.components.schemas;
const catalogTypes = EVENT_CATALOG.map(({ type }) => type);
const stem = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

const NOW_MS = Date.parse('2026-11-21T12:00:00Z');
const endpoint = (owner: WebhookEndpoint['owner']): WebhookEndpoint => ({
  id: 'whk_01KAPX2M7G3R5T8V0W2Y4Z6B8D',
  owner,
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
});

/** What a test send of `type` puts on the wire: its body and headers. */
async function testSend(type: EventType, sandbox: boolean, owner: WebhookEndpoint['owner']) {
  const sent: { body: string; headers: Record<string, string> }[] = [];
  await sendTestEvent(
    {
      now: () => NOW_MS,
      send: async (_url, body, headers) => {
        sent.push({ body, headers });
        return { ok: true, statusCode: 204, durationMs: 3, error: null };
      },
    },
    endpoint(owner),
    type,
    sandbox,
  );
  const [first] = sent;
  if (!first) throw new Error(`no test send of ${type}`);
  return { envelope: JSON.parse(first.body), headers: first.headers };
}

describe('the webhooks section', () => {
  it('has one webhook per event type of the catalog, in catalog order', () => {
    expect(publishedWebhookTypes()).toEqual(catalogTypes);
  });

  it.each(catalogTypes)('%s: a POST of its envelope, `type` fixed and `data` its own schema', (type) => {
    const post = document.webhooks[type].post;
    expect(post.requestBody.required).toBe(true);
    expect(post.requestBody.content['application/json'].schema).toEqual({
      $ref: `#/components/schemas/${stem(type)}Event`,
    });
    const envelope = schemas[`${stem(type)}Event`];
    expect(envelope.properties.type).toMatchObject({ const: type, enum: [type] });
    expect(envelope.properties.data).toEqual({ $ref: `#/components/schemas/${stem(type)}Data` });
    const data = schemas[`${stem(type)}Data`];
    // The members GET /v1/webhooks/event-types lists are the schema's, the required ones without `?`.
    expect(Object.keys(data.properties)).toEqual(dataFieldsOf(type).map((field) => field.replace(/\?$/, '')));
    expect(data.required).toEqual(dataFieldsOf(type).filter((field) => !field.endsWith('?')));
    expect(post.responses).toHaveProperty('2XX');
    expect(post.security).toEqual([]);
  });

  it.each(catalogTypes)('%s: declares every header a delivery carries', async (type) => {
    const { headers } = await testSend(type, false, {
      kind: 'fleet',
      fleetId: 'flt_01KAPX2M7G3R5T8V0W2Y4Z6B8D',
    });
    const parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[] =
      document.webhooks[type].post.parameters;
    // Content-Type is the request body's media type, described there.
    expect(parameters.map((p) => p.name).sort()).toEqual(
      Object.keys(headers)
        .filter((name) => name !== 'Content-Type')
        .sort(),
    );
    for (const parameter of parameters) {
      expect(parameter, parameter.name).toMatchObject({ in: 'header', required: true });
      const value = headers[parameter.name] as string;
      if (parameter.schema.pattern) expect(value).toMatch(new RegExp(String(parameter.schema.pattern)));
      if (parameter.schema.enum) expect(parameter.schema.enum).toEqual([value]);
    }
  });

  it('publishes EventEnvelope as the envelopes of every type, told apart by `type`', () => {
    expect(schemas.EventEnvelope.oneOf).toEqual(
      catalogTypes.map((type) => ({ $ref: `#/components/schemas/${stem(type)}Event` })),
    );
    expect(schemas.EventEnvelope.discriminator).toEqual({
      propertyName: 'type',
      mapping: Object.fromEntries(
        catalogTypes.map((type) => [type, `#/components/schemas/${stem(type)}Event`]),
      ),
    });
  });

  it('lists in GET /v1/webhooks/event-types the members each type publishes', () => {
    expect(eventTypesResource().data).toEqual(
      EVENT_CATALOG.map(({ type, description }) => ({ type, description, data_fields: dataFieldsOf(type) })),
    );
  });
});

// The first check compiles the document's schemas (ajv): a second or two alone, more on a busy machine.
describe('test sends, checked against the published document', { timeout: 30_000 }, () => {
  const owners = {
    fleet: { kind: 'fleet', fleetId: 'flt_01KAPX2M7G3R5T8V0W2Y4Z6B8D' },
    partner: { kind: 'partner', partnerId: 'ptr_01KAPX2M7G3R5T8V0W2Y4Z6B8D' },
  } as const;

  it.each(catalogTypes.flatMap((type) => [[type, false] as const, [type, true] as const]))(
    '%s (sandbox %s): the envelope is its webhook’s, and an EventEnvelope',
    async (type, sandbox) => {
      const { envelope } = await testSend(type, sandbox, owners.fleet);
      expect(envelope).toMatchObject({ type, sandbox, test: true, sequence: 0 });
      expect(webhookEnvelopeProblems(envelope)).toEqual([]);
      expect(eventEnvelopeProblems(envelope)).toEqual([]);
    },
  );

  it('to a partner-level endpoint: the sample fleet is a well-formed one', async () => {
    const { envelope } = await testSend('fleet.provisioned', false, owners.partner);
    expect(webhookEnvelopeProblems(envelope)).toEqual([]);
  });

  it('fail the check when they drift: a member missing, of another type, undeclared, or another type’s data', async () => {
    const { envelope } = await testSend('fueling.matched', false, owners.fleet);
    const { gallons: _, ...withoutGallons } = envelope.data;
    expect(webhookEnvelopeProblems({ ...envelope, data: withoutGallons })).toEqual([
      "/data must have required property 'gallons'",
    ]);
    expect(webhookEnvelopeProblems({ ...envelope, data: { ...envelope.data, gallons: '113.4' } })).toEqual([
      '/data/gallons must be number,null',
    ]);
    expect(webhookEnvelopeProblems({ ...envelope, data: { ...envelope.data, liters: 429 } })).toEqual([
      '/data must NOT have additional properties: liters',
    ]);
    expect(
      webhookEnvelopeProblems({ ...envelope, data: { ...envelope.data, vehicle_id: 'fleet_42' } }),
    ).toEqual(['/data/vehicle_id must match pattern "^veh_[0-9A-HJKMNP-TV-Z]{26}$"']);
    const fuelLow = await testSend('vehicle.fuel_low', false, owners.fleet);
    expect(webhookEnvelopeProblems({ ...envelope, data: fuelLow.envelope.data }).length).toBeGreaterThan(0);
    expect(eventEnvelopeProblems({ ...envelope, data: fuelLow.envelope.data }).length).toBeGreaterThan(0);
    expect(webhookEnvelopeProblems({ ...envelope, type: 'vehicle.fuel_empty' })).toEqual([
      'openapi.json publishes no webhook for vehicle.fuel_empty',
    ]);
  });
});
