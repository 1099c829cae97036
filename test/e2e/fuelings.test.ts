import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';
import {
  eventually,
  type Guidance,
  guidanceClient,
  type ReceivedDelivery,
  secondsAgo,
  startReceiver,
  type Truck,
} from './support-guidance.ts';

/** POST/GET /v1/fuelings and GET /v1/reports/savings over HTTP, every code they answer. */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const readOnly = { key: credentials.keys.company_readonly };
const [partnerFleet] = credentials.fleets.partner_granted;
const partner = { key: credentials.keys.partner_live, fleet: partnerFleet as string };
const guidance = guidanceClient(prod, company);
const key = () => randomUUID();

const post = (
  body: unknown,
  idempotencyKey: string = key(),
  auth: { key: string; fleet?: string } = company,
) => prod.post('/v1/fuelings', { ...auth, idempotencyKey, body });

const cardFill = (truck: Truck, overrides: Record<string, unknown> = {}) => ({
  vehicle_id: truck.id,
  fueled_at: secondsAgo(3600),
  gallons: 100,
  price_usd_per_gallon: 3.599,
  discount_usd_per_gallon: 0.15,
  latitude: 32.7767123,
  longitude: -96.7970456,
  card_transaction_ref: `CARD-${randomUUID()}`,
  merchant_name: 'Pilot #123',
  ...overrides,
});

describe('POST /v1/fuelings', () => {
  it('accepts good items, rejects bad ones on their own, and answers a known card reference as duplicate', async () => {
    const truck = await guidance.newTruck();
    const good = cardFill(truck);
    const response = await post({
      fuelings: [
        good,
        { ...cardFill(truck), gallons: 0, latitude: 95 },
        { ...cardFill(truck), vehicle_id: undefined, external_ref: 'NO-SUCH-TRUCK' },
        { ...good, fueled_at: secondsAgo(60) },
        { external_ref: truck.ref, fueled_at: secondsAgo(7200), gallons: 42.5, total_usd: 150.45 },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ accepted: 2, rejected: 2, duplicates: 1 });
    const [first, bad, unknown, duplicate, byRef] = response.json.results;
    expect(first).toEqual({ index: 0, status: 'accepted', id: expect.stringMatching(/^fuel_/) });
    expect(bad).toMatchObject({
      index: 1,
      status: 'rejected',
      code: 'validation_failed',
      hint: expect.any(String),
    });
    expect(bad.errors.map((e: { field: string }) => e.field).sort()).toEqual(['gallons', 'latitude']);
    expect(unknown).toMatchObject({
      index: 2,
      status: 'rejected',
      code: 'unknown_vehicle',
      hint: expect.stringContaining('NO-SUCH-TRUCK'),
    });
    expect(duplicate).toEqual({ index: 3, status: 'duplicate', id: first.id });
    expect(byRef).toMatchObject({ index: 4, status: 'accepted' });

    // Another batch naming the same card reference: the same id again, nothing recorded twice.
    const again = await post({ fuelings: [{ ...good, gallons: 99 }] });
    expect(again.json.results[0]).toEqual({ index: 0, status: 'duplicate', id: first.id });

    const listed = await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: truck.id } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.data.map((f: { id: string }) => f.id)).toEqual([first.id, byRef.id]);
    expect(listed.json.data[0]).toEqual({
      id: first.id,
      vehicle_id: truck.id,
      external_ref: truck.ref,
      source: 'reported',
      fueled_at: expect.stringMatching(/\.\d{6}Z$/),
      gallons: 100,
      price_usd_per_gallon: 3.599,
      discount_usd_per_gallon: 0.15,
      net_price_usd_per_gallon: 3.449,
      total_usd: null,
      // Dallas, Texas ($0.20 state diesel tax), the fleet's default ifta basis: 3.449 − 0.20.
      state: 'TX',
      state_tax_usd_per_gallon: 0.2,
      fuel_tax_treatment: 'ifta',
      effective_price_usd_per_gallon: 3.249,
      // No recommendation stood: its own price is its counterfactual; the card's $0.15 × 100, no routing.
      counterfactual: {
        source: 'own_price',
        pump_price_usd_per_gallon: 3.399,
        net_price_usd_per_gallon: 3.249,
        station_count: null,
      },
      // v1's benchmark, kept for its clients: the price the saving is measured against.
      benchmark_price_usd_per_gallon: 3.249,
      card_savings_usd: 15,
      routing_savings_usd: 0,
      station: null,
      latitude: 32.77671,
      longitude: -96.79705,
      odometer_miles: null,
      card_transaction_ref: good.card_transaction_ref,
      merchant_name: 'Pilot #123',
      fuel_level_before_percent: null,
      fuel_level_after_percent: null,
      match: null,
      linked_fueling_id: null,
      detected_gallons: null,
      missed_savings_usd: 0,
      unmatched_reason: 'no_guidance',
      // The truck reported nothing around the purchase: nothing to check it against.
      verification: {
        status: 'unverified',
        reasons: [
          expect.objectContaining({ code: 'no_breadcrumbs_near_time' }),
          expect.objectContaining({ code: 'tank_not_checked' }),
          expect.objectContaining({ code: 'no_fuel_levels' }),
        ],
        checked_at: expect.stringMatching(/\.\d{6}Z$/),
      },
      created_at: expect.stringMatching(/\.\d{6}Z$/),
    });
    expect(listed.json.data[1]).toMatchObject({ net_price_usd_per_gallon: 3.54, total_usd: 150.45 });
  });

  it('replays the same key and body, refuses the same key with another body, and requires the key', async () => {
    const truck = await guidance.newTruck();
    const body = { fuelings: [cardFill(truck)] };
    const idempotencyKey = key();
    const first = await post(body, idempotencyKey);
    const replay = await post(body, idempotencyKey);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expectProblem(await post({ fuelings: [cardFill(truck)] }, idempotencyKey), 422, 'idempotency_key_reuse');
    expectProblem(await prod.post('/v1/fuelings', { ...company, body }), 400, 'idempotency_key_required');
  });

  it('refuses more than 500 items or more than 1 MB whole with 413 batch_too_large', async () => {
    const truck = await guidance.newTruck();
    const many = Array.from({ length: 501 }, () => cardFill(truck));
    expectProblem(await post({ fuelings: many }), 413, 'batch_too_large');
    const heavy = Array.from({ length: 300 }, () => ({
      ...cardFill(truck),
      merchant_name: 'x'.repeat(4000),
    }));
    expectProblem(await post({ fuelings: heavy }), 413, 'batch_too_large');
  });

  it('rejects an inactive vehicle and another fleet’s vehicle per item', async () => {
    const parked = await guidance.newTruck();
    expect((await prod.post(`/v1/vehicles/${parked.id}/deactivate`, company)).status).toBeLessThan(300);
    const theirs = await prod.post('/v1/vehicles', {
      ...partner,
      body: { external_ref: `THEIRS-${randomUUID().slice(0, 8)}` },
    });
    expect(theirs.status, theirs.text).toBe(201);
    const response = await post({ fuelings: [cardFill(parked), cardFill({ id: theirs.json.id, ref: '' })] });
    expect(response.json.results).toEqual([
      expect.objectContaining({ index: 0, status: 'rejected', code: 'vehicle_inactive' }),
      expect.objectContaining({ index: 1, status: 'rejected', code: 'unknown_vehicle' }),
    ]);
    // The partner key (fuelings:write, usage:read) records it in its own fleet; the company never sees it.
    const theirFill = await post({ fuelings: [cardFill({ id: theirs.json.id, ref: '' })] }, key(), partner);
    expect(theirFill.json.results[0]).toMatchObject({ status: 'accepted' });
    const partnerList = await prod.get('/v1/fuelings', { ...partner, query: { vehicle_id: theirs.json.id } });
    expect(partnerList.json.data.map((f: { id: string }) => f.id)).toEqual([theirFill.json.results[0].id]);
    const companyList = await prod.get('/v1/fuelings', { ...company, query: { limit: 100 } });
    expect(companyList.json.data.map((f: { vehicle_id: string }) => f.vehicle_id)).not.toContain(
      theirs.json.id,
    );
    expectProblem(
      await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: theirs.json.id } }),
      404,
      'resource_not_found',
    );
    expectProblem(
      await prod.get('/v1/reports/savings', { ...company, query: { vehicle_id: theirs.json.id } }),
      404,
      'resource_not_found',
    );
  });

  it('needs fuelings:write to post and usage:read to read (company_readonly has neither)', async () => {
    const posted = await post({ fuelings: [] }, key(), readOnly);
    expectProblem(posted, 403, 'insufficient_scope');
    expect(posted.json.required_scope).toBe('fuelings:write');
    for (const path of ['/v1/fuelings', '/v1/reports/savings']) {
      const read = await prod.get(path, readOnly);
      expectProblem(read, 403, 'insufficient_scope');
      expect(read.json.required_scope).toBe('usage:read');
    }
  });
});

describe('GET /v1/fuelings', () => {
  it('filters by ext: vehicle, time and source, newest first, a page at a time', async () => {
    const truck = await guidance.newTruck();
    const times = [5, 4, 3].map((h) => secondsAgo(h * 3600));
    await post({
      fuelings: times.map((fueled_at) => cardFill(truck, { fueled_at, latitude: 33 + Math.random() })),
    });
    const ext = `ext:${truck.ref}`;
    const page1 = await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: ext, limit: 2 } });
    expect(page1.json.data).toHaveLength(2);
    expect(Date.parse(page1.json.data[0].fueled_at)).toBeGreaterThan(
      Date.parse(page1.json.data[1].fueled_at),
    );
    const page2 = await prod.get('/v1/fuelings', {
      ...company,
      query: { vehicle_id: ext, limit: 2, cursor: page1.json.next_cursor },
    });
    expect(page2.json).toMatchObject({ data: [expect.any(Object)], next_cursor: null });
    const windowed = await prod.get('/v1/fuelings', {
      ...company,
      query: {
        vehicle_id: ext,
        from: secondsAgo(4.5 * 3600),
        to: secondsAgo(3.5 * 3600),
        source: 'reported',
      },
    });
    expect(windowed.json.data).toHaveLength(1);
    expect(
      (await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: ext, source: 'detected' } })).json
        .data,
    ).toEqual([]);
  });

  it('answers bad filters with 422 naming the field, and a bad cursor with 400', async () => {
    const bad = await prod.get('/v1/fuelings', { ...company, query: { source: 'card' } });
    expectProblem(bad, 422, 'validation_failed');
    expect(bad.json.errors[0].field).toBe('source');
    const backwards = await prod.get('/v1/fuelings', {
      ...company,
      query: { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' },
    });
    expectProblem(backwards, 422, 'validation_failed');
    expect(backwards.json.errors).toEqual([{ field: 'to', message: 'must not be before from' }]);
    expectProblem(
      await prod.get('/v1/fuelings', { ...company, query: { cursor: 'nope' } }),
      400,
      'invalid_cursor',
    );
  });
});

describe('GET /v1/reports/savings', () => {
  it('refuses to before from, more than 366 days, and a malformed date with 422', async () => {
    for (const [query, field] of [
      [{ from: '2026-11-10', to: '2026-11-09' }, 'to'],
      [{ from: '2025-01-01', to: '2026-01-02' }, 'from'],
      [{ from: '2026-13-01' }, 'from'],
    ] as const) {
      const response = await prod.get('/v1/reports/savings', { ...company, query });
      expectProblem(response, 422, 'validation_failed');
      expect(response.json.errors[0].field).toBe(field);
    }
  });

  it('reports one vehicle by ext:, its totals equal to its row, with the definitions', async () => {
    const truck = await guidance.newTruck();
    // 100 gal at $3.449 net, and 50 gal at $3.60: spend $344.90 + $180.00.
    await post({
      fuelings: [
        cardFill(truck),
        cardFill(truck, {
          fueled_at: secondsAgo(7200),
          gallons: 50,
          price_usd_per_gallon: 3.6,
          discount_usd_per_gallon: 0,
        }),
      ],
    });
    const response = await prod.get('/v1/reports/savings', {
      ...company,
      query: { vehicle_id: `ext:${truck.ref}` },
    });
    expect(response.status, response.text).toBe(200);
    const report = response.json;
    expect(report.vehicles).toHaveLength(1);
    const { vehicle_id, external_ref, adherence_rate, ...row } = report.vehicles[0];
    expect({ vehicle_id, external_ref, adherence_rate }).toEqual({
      vehicle_id: truck.id,
      external_ref: truck.ref,
      adherence_rate: null,
    });
    expect(row).toEqual(report.totals);
    expect(report.totals).toMatchObject({
      fuelings: 2,
      gallons: 150,
      spend_usd: 524.9,
      recommended_stops: 0,
      followed_stops: 0,
    });
    // Neither fill had a recommendation: no routing saving; the first fill's card $15, the
    // second's total carries no discount.
    expect(report.totals).toMatchObject({
      card_savings_usd: 15,
      routing_savings_usd: 0,
      savings_usd: 0,
      fuelings_without_recommendation: { total: 2, by_reason: { no_guidance: 2 } },
    });
    // Each fill is its own counterfactual: the counterfactual spend is what was spent, net of the credit.
    expect(report.totals.counterfactual_spend_usd).toBe(report.totals.effective_spend_usd);
    expect(report.totals.benchmark_spend_usd).toBe(report.totals.counterfactual_spend_usd);
    expect(report.methodology).toMatch(/\/v1\/llms\.txt\?section=savings-methodology$/);
    // The link opens the methodology itself, anonymously, as Markdown.
    const methodology = await fetch(report.methodology);
    expect(methodology.status).toBe(200);
    expect(methodology.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await methodology.text()).toMatch(/^# Fleet Fuel Guidance API: savings methodology\n/);
    expect(report.adherence_rate).toBeNull();
    expect(report.period.to).toMatch(/T00:00:00\.000000Z$/);
    expect(typeof report.definitions.savings_usd).toBe('string');
  });
});

describe.runIf(isLocalTarget())('a reported fill at a recommended guidance stop (local stack)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpoint: { id: string };

  beforeAll(async () => {
    receiver = await startReceiver();
    const created = await prod.post('/v1/webhooks', {
      ...company,
      body: { url: receiver.url, event_types: ['guidance.updated', 'fueling.matched'] },
    });
    expect(created.status, created.text).toBe(201);
    endpoint = created.json;
  });
  afterAll(async () => {
    if (endpoint) await prod.delete(`/v1/webhooks/${endpoint.id}`, company);
    await receiver?.close();
  });

  const envelopes = () => receiver.received.map((r: ReceivedDelivery) => JSON.parse(r.body));

  /** A truck in Dallas at 30 %, guided to Denver, its first stop shown and on record. */
  const plannedTruck = async () => {
    const truck = await guidance.newTruck();
    const session = (
      await guidance.start(truck.id, {
        destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
      })
    ).json;
    await guidance.drive(truck, [
      { latitude: 32.7767, longitude: -96.797, recorded_at: secondsAgo(5), fuel_level_percent: 30 },
    ]);
    const planned: Guidance = await guidance.waitFor(truck.id, 'a plan', (g) => g.stops.length > 0);
    // guidance.updated is recorded after the recommended stops: once delivered, they are on record.
    await eventually('guidance.updated with stops', () =>
      envelopes().find(
        (e) =>
          e.type === 'guidance.updated' && e.data.guidance_id === session.id && e.data.stop_ids.length > 0,
      ),
    );
    return { truck, session, stop: planned.stops[0] as Guidance['stops'][number] };
  };

  it('is matched, fires fueling.matched, and counts as followed in the report', async () => {
    const { truck, session, stop } = await plannedTruck();
    const response = await post({
      fuelings: [
        {
          vehicle_id: truck.id,
          fueled_at: secondsAgo(1),
          gallons: 88.5,
          price_usd_per_gallon: stop.price_usd_per_gallon,
          discount_usd_per_gallon: stop.discount_usd_per_gallon,
          station_id: stop.station.id,
          card_transaction_ref: `CARD-${randomUUID()}`,
        },
      ],
    });
    const fuelingId = response.json.results[0].id;
    const matched = await eventually('fueling.matched', () =>
      envelopes().find((e) => e.type === 'fueling.matched' && e.data.fueling_id === fuelingId),
    );
    expect(matched.data).toEqual({
      fueling_id: fuelingId,
      vehicle_id: truck.id,
      external_ref: truck.ref,
      guidance_id: session.id,
      trip_id: null,
      stop_id: stop.id,
      station_id: stop.station.id,
      station: { id: stop.station.id, name: stop.station.name, state: stop.station.state },
      gallons: 88.5,
      recommended_gallons: stop.gallons_to_buy,
      // No position sent: the fill is placed at the station it names.
      distance_miles: 0,
      net_price_usd_per_gallon: stop.net_price_usd_per_gallon,
      recommended_net_price_usd_per_gallon: stop.net_price_usd_per_gallon,
      // Paid what the stop showed: on the stop's basis, the same effective price.
      state_tax_usd_per_gallon: stop.state_tax_usd_per_gallon,
      fuel_tax_treatment: stop.fuel_tax_treatment,
      effective_price_usd_per_gallon: stop.effective_price_usd_per_gallon,
      recommended_effective_price_usd_per_gallon: stop.effective_price_usd_per_gallon,
    });
    expect(matched.data.fuel_tax_treatment).toBe('ifta');
    expect(matched.data.effective_price_usd_per_gallon).toBeCloseTo(
      stop.net_price_usd_per_gallon - (stop.state_tax_usd_per_gallon ?? 0),
      3,
    );
    const listed = await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: truck.id } });
    expect(listed.json.data[0].match).toEqual({
      guidance_id: session.id,
      trip_id: null,
      stop_id: stop.id,
      recommended_net_price_usd_per_gallon: stop.net_price_usd_per_gallon,
    });
    expect(listed.json.data[0].station).toMatchObject({ id: stop.station.id });

    // Ending the session withdraws the stop: followed, so it was due.
    expect((await prod.delete(guidance.path(truck.id), company)).status).toBe(204);
    const report = await prod.get('/v1/reports/savings', { ...company, query: { vehicle_id: truck.id } });
    expect(report.json.totals).toMatchObject({
      fuelings: 1,
      recommended_stops: 1,
      followed_stops: 1,
      missed_savings_usd: 0,
    });
    expect(report.json.adherence_rate).toBe(1);
  });

  it('a card at the stop of a session cancelled before the fill is accepted and matched to it', async () => {
    const { truck, session, stop } = await plannedTruck();
    expect((await prod.delete(guidance.path(truck.id), company)).status).toBe(204);

    const response = await post({
      fuelings: [
        {
          vehicle_id: truck.id,
          fueled_at: secondsAgo(1),
          gallons: 96,
          price_usd_per_gallon: stop.price_usd_per_gallon,
          station_id: stop.station.id,
          card_transaction_ref: `CARD-${randomUUID()}`,
        },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json.results[0]).toMatchObject({ status: 'accepted' });
    const fuelingId = response.json.results[0].id;
    const matched = await eventually('fueling.matched', () =>
      envelopes().find((e) => e.type === 'fueling.matched' && e.data.fueling_id === fuelingId),
    );
    expect(matched.data).toMatchObject({
      guidance_id: session.id,
      stop_id: stop.id,
      station_id: stop.station.id,
    });
    const listed = await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: truck.id } });
    expect(listed.json.data[0]).toMatchObject({
      id: fuelingId,
      match: { guidance_id: session.id, stop_id: stop.id },
      unmatched_reason: null,
    });
  });
});
