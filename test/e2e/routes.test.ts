import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { LOCAL_CONTROL_TABLE } from '#local/stack.ts';
import { COMPANY_SCOPES } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { generateApiKey, hashApiKey } from '#shared/keys/domain/api-key.ts';
import { createApiKeyStore } from '#shared/keys/store/api-keys.ts';
import { createDocumentClient } from '#shared/table/dynamo-client.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { testKeyRecord } from '../support/keys.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const chicago = { latitude: 41.8781, longitude: -87.6298, name: 'Chicago' };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const manual = {
  origin: chicago,
  destination: denver,
  tank_size_gallons: 200,
  estimated_mpg: 6.5,
  fuel_level_percent: 30,
  min_arrival_fuel_percent: 20,
};
const key = () => randomUUID();

describe('POST /v1/routes (manual form)', () => {
  it('plans stops that cover the trip on tax-credited prices, no dearer than the stations in reach, and replays by id', async () => {
    const created = await prod.post('/v1/routes', { ...company, idempotencyKey: key(), body: manual });
    expect(created.status, created.text).toBe(201);
    const route = created.json;
    expect(route.id).toMatch(/^rte_/);
    expect(route.distance_miles).toBeGreaterThan(900);
    expect(route.polyline).toBeTypeOf('string');
    expect(route.plan.status).toBe('ok');
    expect(route.plan.stops.length).toBeGreaterThan(0);
    // 1,000 miles at 6.5 mpg burns ~155 gal; starting with 60 gal and arriving with ≥ 40, stops buy the rest.
    expect(route.plan.total_gallons).toBeGreaterThan(100);
    expect(route.plan.arrival_fuel_percent).toBeGreaterThanOrEqual(20 - 0.1);
    // The last stop names where its fuel takes the truck; every stop explains its price.
    expect(route.plan.stops.at(-1).reason).toContain('Denver');
    // A new fleet prices on the IFTA basis: each stop net of its state's credited diesel tax.
    const cents = (usd: number) => Math.round(usd * 100);
    const { baseline, plan, savings } = route;
    expect(plan.fuel_tax_treatment).toBe('ifta');
    for (const stop of plan.stops) {
      expect(stop.reason).toMatch(/\$\d+\.\d{2}/);
      expect(stop.net_price_usd_per_gallon).toBeCloseTo(
        stop.price_usd_per_gallon - stop.discount_usd_per_gallon,
        3,
      );
      expect(stop.gallons_to_buy).toBeGreaterThanOrEqual(20);
      expect(stop.state).toMatch(/^[A-Z]{2}$/);
      expect(stop.state_tax_usd_per_gallon).toBeGreaterThan(0);
      expect(stop.effective_price_usd_per_gallon).toBeCloseTo(
        stop.net_price_usd_per_gallon - stop.state_tax_usd_per_gallon,
        3,
      );
      // Of the exact gallons (the detour's fuel included), shown to 0.1 gal.
      expect(
        Math.abs(stop.effective_cost_usd - stop.gallons_to_buy * stop.effective_price_usd_per_gallon),
      ).toBeLessThanOrEqual(0.05 * stop.effective_price_usd_per_gallon + 0.005);
      expect(stop.counterfactual.station_count).toBeGreaterThanOrEqual(1);
    }
    // The comparison is the plan's own purchases at the counterfactual prices (within the 0.05 gal
    // the shown gallons round off); the saving's sum can be redone from the response, to the cent.
    expect(baseline.strategy).toBe('mean_price_in_reach');
    expect(baseline.gallons).toBeCloseTo(plan.total_gallons, 5);
    type Stop = (typeof plan.stops)[number];
    const atShownGallons = (price: (stop: Stop) => number) =>
      plan.stops.reduce((sum: number, stop: Stop) => sum + stop.gallons_to_buy * price(stop), 0);
    const slack = plan.stops.length * (0.05 * 5 + 0.005);
    const counterfactualAt = atShownGallons((stop) => stop.counterfactual.net_price_usd_per_gallon);
    const pumpAt = atShownGallons((stop) => stop.counterfactual.pump_price_usd_per_gallon);
    expect(Math.abs(baseline.cost_usd - counterfactualAt)).toBeLessThanOrEqual(slack);
    expect(Math.abs(baseline.pump_cost_usd - pumpAt)).toBeLessThanOrEqual(slack);
    expect(savings.basis).toBe('same_arrival_fuel');
    expect(savings.fuel_tax_treatment).toBe('ifta');
    expect(savings.counterfactual_cost_usd).toBe(baseline.cost_usd);
    expect(cents(savings.plan_cost_usd)).toBe(
      plan.stops.reduce(
        (sum: number, stop: { effective_cost_usd: number }) => sum + cents(stop.effective_cost_usd),
        0,
      ),
    );
    expect(cents(savings.usd)).toBe(cents(savings.counterfactual_cost_usd) - cents(savings.plan_cost_usd));
    expect(savings.routing_savings_usd).toBe(savings.usd);
    expect(cents(savings.card_savings_usd)).toBe(cents(baseline.pump_cost_usd) - cents(baseline.cost_usd));
    expect(savings.usd).toBeGreaterThanOrEqual(0);
    expect(savings.description).toContain(`$${savings.counterfactual_cost_usd.toFixed(2)}`);
    // v1's members, kept: the counterfactual buys the plan's gallons at the plan's stops, so it
    // arrives with the plan's fuel and nothing is left over to value.
    expect(baseline).toMatchObject({
      feasible: true,
      stop_count: plan.stops.length,
      arrival_fuel_gallons: plan.arrival_fuel_gallons,
      arrival_fuel_percent: plan.arrival_fuel_percent,
    });
    expect(savings).toMatchObject({
      baseline_cost_usd: savings.counterfactual_cost_usd,
      extra_arrival_fuel_gallons: 0,
      extra_arrival_fuel_value_usd: 0,
    });
    // The mean effective price of the corridor's stations: a diesel price.
    expect(savings.fuel_value_usd_per_gallon).toBeGreaterThan(2);
    expect(savings.fuel_value_usd_per_gallon).toBeLessThan(7);

    const replay = await prod.get(`/v1/routes/${route.id}`, company);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(created.text);
  });

  it('replays the same Idempotency-Key and body, and refuses the key with another body', async () => {
    const idempotencyKey = key();
    const first = await prod.post('/v1/routes', { ...company, idempotencyKey, body: manual });
    const again = await prod.post('/v1/routes', { ...company, idempotencyKey, body: manual });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey,
      body: { ...manual, fuel_level_percent: 50 },
    });
    expectProblem(other, 422, 'idempotency_key_reuse');
  });

  it('400 without an Idempotency-Key or with one over 64 characters', async () => {
    expectProblem(
      await prod.post('/v1/routes', { ...company, body: manual }),
      400,
      'idempotency_key_required',
    );
    expectProblem(
      await prod.post('/v1/routes', { ...company, idempotencyKey: 'k'.repeat(65), body: manual }),
      400,
      'idempotency_key_required',
    );
  });

  it('says so when no plan is feasible (a tiny tank cannot cross the gaps)', async () => {
    const response = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: key(),
      body: { ...manual, tank_size_gallons: 5, fuel_level_percent: 100 },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.json.plan.status).toBe('infeasible');
    expect(response.json.plan.reason.length).toBeGreaterThan(10);
    expect(response.json.plan.stops).toEqual([]);
    // Nothing to compare, but v1's baseline is an object on every plan: not feasible, every figure 0.
    expect(response.json.baseline).toMatchObject({
      feasible: false,
      stop_count: 0,
      gallons: 0,
      cost_usd: 0,
      arrival_fuel_gallons: 0,
      arrival_fuel_percent: 0,
    });
    expect(response.json.savings).toBeNull();
  });

  it('422 naming each missing or conflicting field of the two forms', async () => {
    const missing = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: key(),
      body: { destination: denver, min_arrival_fuel_percent: 20 },
    });
    expectProblem(missing, 422, 'validation_failed');
    expect(missing.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'estimated_mpg',
      'fuel_level_percent',
      'origin',
      'tank_size_gallons',
    ]);
    const mixed = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: key(),
      body: { ...manual, vehicle_id: 'ext:T-1' },
    });
    expect(mixed.json.errors.map((e: { field: string }) => e.field)).toContain('origin');
  });

  it('502 routing_unreachable for a destination in the ocean', async () => {
    const response = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: key(),
      body: { ...manual, destination: { latitude: 30, longitude: -140 } },
    });
    expectProblem(response, 502, 'routing_unreachable');
  });
});

describe('POST /v1/routes (vehicle form)', () => {
  const vehicle = async (body: Record<string, unknown>) =>
    (
      await prod.post('/v1/vehicles', {
        ...company,
        body: { external_ref: `RT-${key().slice(0, 8)}`, ...body },
      })
    ).json;

  it('422 insufficient_fuel_data without tank size and mpg', async () => {
    const v = await vehicle({});
    const response = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: key(),
      body: { vehicle_id: v.id, destination: denver, min_arrival_fuel_percent: 20 },
    });
    expectProblem(response, 422, 'insufficient_fuel_data');
  });

  it('422 naming vehicle_id before the vehicle has reported a position', async () => {
    const v = await vehicle({ tank_size_gallons: 200, estimated_mpg: 6.5 });
    const response = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: key(),
      body: { vehicle_id: `ext:${v.external_ref}`, destination: denver, min_arrival_fuel_percent: 20 },
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors[0].field).toBe('vehicle_id');
  });

  it('409 vehicle_inactive for a deactivated vehicle', async () => {
    const v = await vehicle({ tank_size_gallons: 200, estimated_mpg: 6.5 });
    await prod.post(`/v1/vehicles/${v.id}/deactivate`, company);
    const response = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: key(),
      body: { vehicle_id: v.id, destination: denver, min_arrival_fuel_percent: 20 },
    });
    expectProblem(response, 409, 'vehicle_inactive');
  });
});

describe('GET /v1/routes/{id}', () => {
  it("answers 404 for another fleet's route and 400 for a malformed id", async () => {
    const created = await prod.post('/v1/routes', { ...company, idempotencyKey: key(), body: manual });
    const [granted] = credentials.fleets.partner_granted;
    const other = await prod.get(`/v1/routes/${created.json.id}`, {
      key: credentials.keys.partner_live,
      fleet: granted,
    });
    expectProblem(other, 404, 'resource_not_found');
    expectProblem(await prod.get('/v1/routes/rte_nope', company), 400, 'invalid_public_id');
  });
});

describe('Idempotency-Key scope: the account and the acting fleet, not the API key', () => {
  it('keeps a partner’s fleets apart: one header value, two fleets, two routes', async () => {
    const partner = { key: credentials.keys.partner_live };
    const second = await prod.post('/v1/fleets', {
      ...partner,
      body: { name: 'Idempotency fleet', timezone: 'UTC' },
    });
    expect(second.status, second.text).toBe(201);
    const idempotencyKey = key();
    const [a, b] = [credentials.fleets.partner_granted[0] as string, second.json.id as string];
    const forA = await prod.post('/v1/routes', { ...partner, fleet: a, idempotencyKey, body: manual });
    const forB = await prod.post('/v1/routes', { ...partner, fleet: b, idempotencyKey, body: manual });
    expect([forA.status, forB.status]).toEqual([201, 201]);
    expect(forB.json.id).not.toBe(forA.json.id);
    expect(forB.headers.get('idempotent-replayed')).toBeNull();
    expect((await prod.get(`/v1/routes/${forB.json.id}`, { ...partner, fleet: b })).status).toBe(200);
  });

  describe.runIf(isLocalTarget())(
    'two keys of one company (a second key written into the local table)',
    () => {
      it('replays the first key’s route for the second key: a key rotated mid-retry never creates twice', async () => {
        // Arrange: the company's second live key, as an operator would issue it.
        const secondKey = generateApiKey('live');
        const client = createDocumentClient({ region: 'us-east-1', endpoint: inject('e2eDynamoDbEndpoint') });
        const me = await prod.get('/v1/me', company);
        await createApiKeyStore(client, LOCAL_CONTROL_TABLE).create(
          hashApiKey(secondKey),
          testKeyRecord({
            keyId: newId('apiKey'),
            name: 'Demo company live (rotated)',
            ownerType: 'company',
            accountId: me.json.account.id,
            partnerId: null,
            fleetId: credentials.fleets.company,
            mode: 'live',
            scopes: [...COMPANY_SCOPES],
            status: 'active',
            planName: 'local-dev',
            createdAt: '2026-11-23T00:00:00.000000Z',
          }),
        );
        const idempotencyKey = key();

        // Act
        const first = await prod.post('/v1/routes', { ...company, idempotencyKey, body: manual });
        const retried = await prod.post('/v1/routes', { key: secondKey, idempotencyKey, body: manual });
        const otherBody = await prod.post('/v1/routes', {
          key: secondKey,
          idempotencyKey,
          body: { ...manual, fuel_level_percent: 50 },
        });

        // Assess: one route; the second key got its bytes back, and the fingerprint still guards the key.
        expect(first.status, first.text).toBe(201);
        expect(retried.status).toBe(201);
        expect(retried.text).toBe(first.text);
        expect(retried.headers.get('idempotent-replayed')).toBe('true');
        expectProblem(otherBody, 422, 'idempotency_key_reuse');
      });
    },
  );
});
