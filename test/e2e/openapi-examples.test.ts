import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type OperationExamples, problemExample } from '#shared/api/example.ts';
import { operationExamples } from '#shared/api/examples.ts';
import { OPENAPI_SERVER_PLACEHOLDER } from '#shared/api/openapi.ts';
import type { routes } from '#shared/api/route-table.ts';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';

/**
 * The published request examples, sent to the running API as a client would copy them from
 * openapi.json: each is accepted, and each answer has the members of the published response example
 * (values differ: ids, times, prices). Only what must be unique or current is replaced: the
 * vehicle's external_ref and VIN, card references, breadcrumb, fueling, report and trip times, the
 * webhook URL (the example's host does not resolve), the fuelings' station_id (the local catalog
 * does not hold the example's truck stops), and the new vehicle's and trip stop's ids in the trip
 * requests.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const partner = { key: credentials.keys.partner_live };

function examples(operationId: keyof typeof routes): Required<OperationExamples> {
  const found = operationExamples[operationId];
  if (!found) throw new Error(`${operationId} has no examples`);
  return found as Required<OperationExamples>;
}

// biome-ignore lint/suspicious/noExplicitAny: examples are JSON documents walked member by member.
type AnyJson = any;

/** Member names, recursively (arrays by their first item): what a client's parser depends on. */
function membersOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [membersOf(value[0])] : [];
  if (typeof value !== 'object' || value === null) return 'value';
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, member]) => [name, membersOf(member)]),
  );
}

/** Both have the same members, except arrays one side left empty (no stop, no station found). */
function expectSameMembers(actual: unknown, example: unknown, where = 'body') {
  const a = membersOf(actual);
  const e = membersOf(example);
  if (Array.isArray(a) || Array.isArray(e)) {
    if (Array.isArray(a) && Array.isArray(e) && a.length > 0 && e.length > 0) {
      expectSameMembers((actual as unknown[])[0], (example as unknown[])[0], `${where}[0]`);
    }
    return;
  }
  if (a === 'value' || e === 'value') return;
  expect(Object.keys(a as object), where).toEqual(Object.keys(e as object));
  for (const name of Object.keys(e as object)) {
    expectSameMembers((actual as AnyJson)[name], (example as AnyJson)[name], `${where}.${name}`);
  }
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/**
 * A trip example's planned times, all moved by the time from `anchor` to now: trip times lie within
 * a year of the request, and the example's stay in the same order and spacing.
 */
function plannedFromNow(body: AnyJson, anchor: string): AnyJson {
  const shift = Date.now() - Date.parse(anchor);
  const moved = (at: string | undefined) =>
    at === undefined ? undefined : new Date(Date.parse(at) + shift).toISOString();
  return {
    ...body,
    ...(body.planned_start_at ? { planned_start_at: moved(body.planned_start_at) } : {}),
    ...(body.planned_end_at ? { planned_end_at: moved(body.planned_end_at) } : {}),
    ...(body.stops
      ? {
          stops: body.stops.map((stop: AnyJson) =>
            stop.planned_arrival_at ? { ...stop, planned_arrival_at: moved(stop.planned_arrival_at) } : stop,
          ),
        }
      : {}),
  };
}

describe('the published examples, sent to the API', () => {
  it('vehicle → breadcrumbs → latest location → nearby stations → guidance → skip → route → update', async () => {
    const ref = `TRUCK-${randomUUID().slice(0, 8)}`;
    const vin = `3AKJHHDR7NS${String(Date.now()).slice(-6)}`;

    const createVehicle = examples('createVehicle');
    const vehicle = await prod.post('/v1/vehicles', {
      ...company,
      body: { ...(createVehicle.request.body as object), external_ref: ref, vin },
    });
    expect(vehicle.status, vehicle.text).toBe(201);
    expectSameMembers(vehicle.json, createVehicle.responses[201]);
    const vehicleId = vehicle.json.id as string;

    const ingest = examples('ingestLocations');
    const batch = ingest.request.body as { locations: AnyJson[] };
    const locations = batch.locations.map((item, index) => ({
      ...item,
      ...(item.external_ref === 'TRUCK-042' ? { external_ref: ref } : {}),
      ...(item.vehicle_id ? { vehicle_id: vehicleId } : {}),
      recorded_at: minutesAgo(batch.locations.length - index),
    }));
    const ingested = await prod.post('/v1/locations', { ...company, body: { locations } });
    expect(ingested.status, ingested.text).toBe(200);
    const expected = ingest.responses[200] as AnyJson;
    expect(ingested.json.results.map((r: AnyJson) => [r.status, r.code])).toEqual(
      expected.results.map((r: AnyJson) => [r.status, r.code]),
    );
    expectSameMembers(ingested.json, expected);

    const location = await prod.get(`/v1/vehicles/${vehicleId}/location`, company);
    expect(location.status, location.text).toBe(200);
    expectSameMembers(location.json, examples('getVehicleLocation').responses[200]);

    const nearby = examples('listNearbyStations');
    const stations = await prod.get('/v1/stations', { ...company, query: nearby.request.query });
    expect(stations.status, stations.text).toBe(200);
    expectSameMembers(stations.json, nearby.responses[200]);

    const start = examples('startGuidance');
    const guidance = await prod.post(`/v1/vehicles/${vehicleId}/guidance`, {
      ...company,
      body: start.request.body,
    });
    expect(guidance.status, guidance.text).toBe(201);
    expectSameMembers(guidance.json, start.responses[201]);

    const stop = guidance.json.stops[0];
    expect(stop, 'the example trip needs a fuel stop').toBeDefined();
    const skip = examples('skipGuidanceStop');
    const skipped = await prod.post(`/v1/vehicles/${vehicleId}/guidance/stops/${stop.id}/skip`, {
      ...company,
      body: skip.request.body,
    });
    expect(skipped.status, skipped.text).toBe(204);

    const create = examples('createRoute');
    const route = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: randomUUID(),
      body: { ...(create.request.body as object), vehicle_id: vehicleId },
    });
    expect(route.status, route.text).toBe(201);
    expectSameMembers(route.json, create.responses[201]);

    const update = examples('updateVehicle');
    const updated = await prod.patch(`/v1/vehicles/${vehicleId}`, { ...company, body: update.request.body });
    expect(updated.status, updated.text).toBe(200);
    expectSameMembers(updated.json, update.responses[200]);
  });

  it('trip: create → list → update → optimize → start → arrive, depart → get → complete; cancel; delete', async () => {
    const createVehicle = examples('createVehicle');
    const vehicle = await prod.post('/v1/vehicles', {
      ...company,
      body: {
        ...(createVehicle.request.body as object),
        external_ref: `TRUCK-${randomUUID().slice(0, 8)}`,
        vin: `3AKJHHDR7NS${String(Date.now()).slice(-6)}`,
      },
    });
    expect(vehicle.status, vehicle.text).toBe(201);
    const vehicleId = vehicle.json.id as string;

    const create = examples('createTrip');
    const createBody = create.request.body as AnyJson;
    const newTrip = () =>
      prod.post('/v1/trips', {
        ...company,
        idempotencyKey: randomUUID(),
        body: { ...plannedFromNow(createBody, createBody.planned_start_at), vehicle_id: vehicleId },
      });
    const created = await newTrip();
    expect(created.status, created.text).toBe(201);
    expectSameMembers(created.json, create.responses[201]);
    const tripPath = `/v1/trips/${created.json.id}`;

    const list = examples('listTrips');
    const listed = await prod.get('/v1/trips', {
      ...company,
      query: { ...list.request.query, vehicle_id: vehicleId },
    });
    expect(listed.status, listed.text).toBe(200);
    expectSameMembers(listed.json, list.responses[200]);

    // The example keeps the pickup by its id: this trip's own.
    const pickup = created.json.stops.find((stop: AnyJson) => stop.type === 'pickup');
    const update = examples('updateTrip');
    const body = plannedFromNow(update.request.body, createBody.planned_start_at);
    const updated = await prod.patch(tripPath, {
      ...company,
      body: { ...body, stops: [{ ...body.stops[0], id: pickup.id }] },
    });
    expect(updated.status, updated.text).toBe(200);
    expectSameMembers(updated.json, update.responses[200]);

    for (const [operationId, path] of [
      ['optimizeTrip', 'optimize'],
      ['startTrip', 'start'],
    ] as const) {
      const moved = await prod.post(`${tripPath}/${path}`, company);
      expect(moved.status, `${operationId}: ${moved.text}`).toBe(200);
      expectSameMembers(moved.json, examples(operationId).responses[200]);
    }
    for (const visit of ['arrive', 'depart']) {
      const visited = await prod.post(`${tripPath}/stops/${pickup.id}/${visit}`, company);
      expect(visited.status, `${visit}: ${visited.text}`).toBe(204);
    }
    const read = await prod.get(tripPath, company);
    expect(read.status, read.text).toBe(200);
    expectSameMembers(read.json, examples('getTrip').responses[200]);
    const completed = await prod.post(`${tripPath}/complete`, company);
    expect(completed.status, completed.text).toBe(200);
    expectSameMembers(completed.json, examples('completeTrip').responses[200]);

    const toCancel = await newTrip();
    expect(toCancel.status, toCancel.text).toBe(201);
    const started = await prod.post(`/v1/trips/${toCancel.json.id}/start`, company);
    expect(started.status, started.text).toBe(200);
    const cancel = examples('cancelTrip');
    const cancelled = await prod.post(`/v1/trips/${toCancel.json.id}/cancel`, {
      ...company,
      body: cancel.request.body,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expectSameMembers(cancelled.json, cancel.responses[200]);

    const toDelete = await newTrip();
    expect(toDelete.status, toDelete.text).toBe(201);
    const deleted = await prod.delete(`/v1/trips/${toDelete.json.id}`, company);
    expect(deleted.status, deleted.text).toBe(204);
  });

  it('card batch → fuelings of the truck → savings report', async () => {
    const stamp = randomUUID().slice(0, 8);
    const refs: Record<string, string> = { 'TRUCK-042': `TRUCK-${stamp}`, 'TRUCK-043': `TRUCK-${stamp}-B` };
    const createVehicle = examples('createVehicle');
    for (const [index, ref] of Object.values(refs).entries()) {
      const vin = `3AKJHHDR7NS${String(Date.now() + index).slice(-6)}`;
      const vehicle = await prod.post('/v1/vehicles', {
        ...company,
        body: { ...(createVehicle.request.body as object), external_ref: ref, vin },
      });
      expect(vehicle.status, vehicle.text).toBe(201);
    }

    // The example's stations are real truck stops the local catalog does not hold: the fills name none.
    // The last row's truck stays unregistered (a fresh ref), which is what the example shows rejected.
    const record = examples('recordFuelings');
    const rows = (record.request.body as { fuelings: AnyJson[] }).fuelings;
    const fuelings = rows.map(({ station_id: _, ...item }, index) => ({
      ...item,
      external_ref: refs[item.external_ref] ?? `${item.external_ref}-${stamp}`,
      card_transaction_ref: `${item.card_transaction_ref}-${stamp}`,
      fueled_at: minutesAgo(30 - index),
    }));
    const earlier = await prod.post('/v1/fuelings', {
      ...company,
      idempotencyKey: randomUUID(),
      body: { fuelings: [fuelings[1]] },
    });
    expect(earlier.status, earlier.text).toBe(200);
    const recorded = await prod.post('/v1/fuelings', {
      ...company,
      idempotencyKey: randomUUID(),
      body: { fuelings },
    });
    expect(recorded.status, recorded.text).toBe(200);
    const expected = record.responses[200] as AnyJson;
    expect(recorded.json.results.map((r: AnyJson) => [r.status, r.code, r.errors])).toEqual(
      expected.results.map((r: AnyJson) => [r.status, r.code, r.errors]),
    );
    expectSameMembers(recorded.json, expected);

    const list = examples('listFuelings');
    const listed = await prod.get('/v1/fuelings', {
      ...company,
      query: {
        ...list.request.query,
        vehicle_id: `ext:${refs['TRUCK-042']}`,
        from: minutesAgo(120),
        to: new Date().toISOString(),
      },
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.data.map((f: AnyJson) => f.id)).toEqual([recorded.json.results[0].id]);
    expectSameMembers(listed.json, list.responses[200]);

    const savings = examples('getSavingsReport');
    const report = await prod.get('/v1/reports/savings', {
      ...company,
      query: {
        ...savings.request.query,
        from: minutesAgo(60 * 24).slice(0, 10),
        to: minutesAgo(0).slice(0, 10),
      },
    });
    expect(report.status, report.text).toBe(200);
    expect(report.json.vehicles.length).toBeGreaterThan(0);
    expectSameMembers(report.json, savings.responses[200]);
  });

  it('fleet provisioning by a partner: create and update', async () => {
    const create = examples('createFleet');
    const fleet = await prod.post('/v1/fleets', {
      ...partner,
      body: { ...(create.request.body as object), external_ref: `RRF-${randomUUID().slice(0, 8)}` },
    });
    expect(fleet.status, fleet.text).toBe(201);
    expectSameMembers(fleet.json, create.responses[201]);

    const update = examples('updateFleet');
    const updated = await prod.patch(`/v1/fleets/${fleet.json.id}`, {
      ...partner,
      body: update.request.body,
    });
    expect(updated.status, updated.text).toBe(200);
    expectSameMembers(updated.json, update.responses[200]);
    expect(updated.json.fuel_tax_treatment).toBe('pump');

    // The published 422 is what the API answers for a treatment it does not know.
    const rejected = await prod.patch(`/v1/fleets/${fleet.json.id}`, {
      ...partner,
      body: { fuel_tax_treatment: 'interstate' },
    });
    const published = problemExample(update.problem, OPENAPI_SERVER_PLACEHOLDER);
    expect(rejected.status, rejected.text).toBe(published.status);
    expect(rejected.json).toMatchObject({
      code: published.code,
      detail: published.detail,
      errors: published.errors,
    });
  });

  it('along-route stations, from the origin-and-destination example', async () => {
    const along = examples('listStationsAlongRoute');
    const response = await prod.post('/v1/stations/along-route', { ...company, body: along.request.body });

    expect(response.status, response.text).toBe(200);
    expectSameMembers(response.json, along.responses[200]);
  });

  it('webhook endpoint: create and update', async () => {
    const create = examples('createWebhook');
    const created = await prod.post('/v1/webhooks', {
      ...company,
      body: { ...(create.request.body as object), url: 'https://93.184.216.34/fleet-hooks' },
    });
    expect(created.status, created.text).toBe(201);
    expectSameMembers(created.json, create.responses[201]);

    const update = examples('updateWebhook');
    const updated = await prod.patch(`/v1/webhooks/${created.json.id}`, {
      ...company,
      body: update.request.body,
    });
    expect(updated.status, updated.text).toBe(200);
    expectSameMembers(updated.json, update.responses[200]);
  });
});
