import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { eventEnvelopeProblems, webhookEnvelopeProblems } from '../support/published-events.ts';
import { expectProblem } from './problem.ts';
import { eventually, guidanceClient, type ReceivedDelivery, startReceiver } from './support-guidance.ts';

/**
 * The events feed over HTTP: an event from a real action (starting guidance), as a loopback
 * receiver got it, read back by list and by id, byte for byte.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const [partnerFleet] = credentials.fleets.partner_granted;
const guidance = guidanceClient(prod, company);
const toDenver = { destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' } };

describe.runIf(isLocalTarget())('the events feed (local stack)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpointId: string | undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    const created = await prod.post('/v1/webhooks', {
      ...company,
      body: { url: receiver.url, event_types: ['guidance.updated'] },
    });
    expect(created.status, created.text).toBe(201);
    endpointId = created.json.id;
  });
  afterAll(async () => {
    if (endpointId) await prod.delete(`/v1/webhooks/${endpointId}`, company);
    await receiver?.close();
  });

  it('answers the delivered guidance.updated by id and in the list after the previous sequence, with the same bytes', async () => {
    const truck = await guidance.newTruck();
    const session = (await guidance.start(truck.id, toDenver)).json;
    const delivery = await eventually('guidance.updated for the new session', () =>
      receiver.received.find((r: ReceivedDelivery) => JSON.parse(r.body).data?.guidance_id === session.id),
    );
    const delivered = JSON.parse(delivery.body);

    const byId = await prod.get(`/v1/events/${delivered.id}`, company);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.headers.get('content-type')).toMatch(/^application\/json/);
    expect(byId.text).toBe(delivery.body);

    const listed = await prod.get('/v1/events', {
      ...company,
      query: { after_sequence: delivered.sequence - 1, limit: 1 },
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.data).toHaveLength(1);
    expect(JSON.stringify(listed.json.data[0])).toBe(delivery.body);
    // Delivered and listed, the event is its type's webhook and an EventEnvelope as openapi.json publishes them.
    expect(webhookEnvelopeProblems(delivered)).toEqual([]);
    expect(eventEnvelopeProblems(listed.json.data[0])).toEqual([]);

    // Filtered by type, every item is of it and in rising sequence.
    const typed = await prod.get('/v1/events', {
      ...company,
      query: { type: 'guidance.updated', after_sequence: delivered.sequence - 1 },
    });
    const sequences = typed.json.data.map((event: { sequence: number }) => event.sequence);
    expect(typed.json.data.every((event: { type: string }) => event.type === 'guidance.updated')).toBe(true);
    expect(sequences[0]).toBe(delivered.sequence);
    expect(sequences).toEqual([...sequences].sort((a: number, b: number) => a - b));
  });

  it('keeps fleets apart and asks partners for the fleet; bad filters are problems', async () => {
    const truck = await guidance.newTruck();
    const session = (await guidance.start(truck.id, toDenver)).json;
    const delivery = await eventually('guidance.updated', () =>
      receiver.received.find((r: ReceivedDelivery) => JSON.parse(r.body).data?.guidance_id === session.id),
    );
    const eventId = JSON.parse(delivery.body).id;
    const partner = { key: credentials.keys.partner_live };

    expectProblem(
      await prod.get(`/v1/events/${eventId}`, { ...partner, fleet: partnerFleet as string }),
      404,
      'resource_not_found',
    );
    expectProblem(await prod.get('/v1/events', partner), 400, 'fleet_header_required');
    expectProblem(await prod.get('/v1/events/evt_123', company), 400, 'invalid_public_id');
    expectProblem(
      await prod.get('/v1/events', { ...company, query: { type: 'vehicle.exploded' } }),
      422,
      'validation_failed',
    );
    expectProblem(
      await prod.get('/v1/events', { ...company, query: { cursor: 'abc' } }),
      400,
      'invalid_cursor',
    );
    // An id minted long before the replay window: past it, whoever held it.
    expectProblem(await prod.get('/v1/events/evt_00000000000000000000000000', company), 410, 'event_expired');
  });
});
