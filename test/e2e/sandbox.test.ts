import { afterAll, describe, expect, it } from 'vitest';
import { SIM_CITIES } from '#shared/sandbox/domain/profiles.ts';
import { SCENARIO_NAMES } from '#shared/sandbox/domain/scenarios.ts';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

/**
 * The sandbox tools over HTTP against the sandbox stage: the twin of the demo company (three
 * simulated trucks, moved by the local tick and by the test clock), its scenarios and reset, and
 * the refusals: bad input, other vehicles, the production stage.
 */
const credentials = loadCredentials();
const sandbox = api(credentials.sandbox_base_url);
const prod = api(credentials.base_url);
const test = { key: credentials.keys.company_test };
const live = { key: credentials.keys.company_live };

interface Snapshot {
  object: string;
  fleet_id: string;
  status: string;
  clock: { simulated_now: string; tick_interval_seconds: number; last_tick_at: string | null };
  vehicles: {
    vehicle_id: string;
    external_ref: string;
    profile: { id: string; tank_size_gallons: number; mpg: number };
    scenario: string;
    pending_scenario: string | null;
    state: string;
    position: { latitude: number; longitude: number; speed_mph: number; recorded_at: string } | null;
    fuel: { percent: number; gallons: number } | null;
    destination: { name: string; latitude: number; longitude: number } | null;
    route_polyline: string | null;
    guidance_id: string | null;
  }[];
  recent_events: { id: string; type: string }[];
}

async function snapshot(): Promise<Snapshot> {
  const response = await sandbox.get<Snapshot>('/v1/sandbox/simulation', test);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

const truck = (s: Snapshot, ref: string) =>
  s.vehicles.find((v) => v.external_ref === ref) as Snapshot['vehicles'][0];

const TWIN_CITIES = new Set<string>(Object.values(SIM_CITIES).map((city) => city.name));

/**
 * Where a truck is headed is its current leg's end: a city of the twin, or, on a fuel stop, the
 * station guidance sent it to (a real one of the sandbox's catalog), or `roadside` while it fills
 * at the stop it was passing. Other suites advance the shared twin, so any of them can be current.
 */
async function expectLegEnd(v: Snapshot['vehicles'][0]) {
  const name = v.destination?.name ?? '';
  if (TWIN_CITIES.has(name)) return;
  if (name === 'roadside') {
    expect(v.state).toBe('fueling');
    return;
  }
  const { latitude, longitude } = v.destination as { latitude: number; longitude: number };
  const nearby = await sandbox.get('/v1/stations', {
    ...test,
    query: { latitude, longitude, radius_miles: 1 },
  });
  expect(nearby.status, nearby.text).toBe(200);
  expect((nearby.json.data as { name: string }[]).map((station) => station.name)).toContain(name);
}

// The twin is shared with whoever uses the local stack: leave it as a reset leaves it.
afterAll(async () => {
  await sandbox.post('/v1/sandbox/reset', test);
});

describe('GET /v1/sandbox/simulation', () => {
  it('shows the twin’s three trucks with their profiles, and they move within a minute of the start', async () => {
    const first = await snapshot();
    expect(first.object).toBe('sandbox_simulation');
    expect(first.fleet_id).toBe(credentials.fleets.company_sandbox);
    expect(first.status).toBe('running');
    expect(first.clock.tick_interval_seconds).toBe(60);
    expect(first.vehicles.map((v) => [v.external_ref, v.profile.id])).toEqual([
      ['sim-1', 'long_haul_sleeper'],
      ['sim-2', 'regional_day_cab'],
      ['sim-3', 'reefer_low_fuel'],
    ]);
    for (const v of first.vehicles) {
      expect(v.vehicle_id).toMatch(/^veh_/);
      expect(v.route_polyline).toBeTypeOf('string');
      await expectLegEnd(v);
    }

    // The local tick (LOCAL_SANDBOX_TICK_INTERVAL_MS, short in this suite) moves them on its own.
    const deadline = Date.now() + 60_000;
    let moved = false;
    let positioned = first;
    while (!moved && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const later = await snapshot();
      if (later.vehicles.every((v) => v.position !== null)) {
        if (positioned.vehicles.every((v) => v.position !== null)) {
          moved = later.vehicles.some(
            (v, i) => v.position?.recorded_at !== positioned.vehicles[i]?.position?.recorded_at,
          );
        }
        positioned = later;
      }
    }
    expect(moved).toBe(true);
    expect(positioned.clock.last_tick_at).not.toBeNull();
  }, 70_000);

  it.each([
    ['GET', '/v1/sandbox/simulation', undefined],
    ['POST', '/v1/sandbox/reset', undefined],
    ['POST', '/v1/sandbox/vehicles/ext:sim-1/scenario', { scenario: 'offline' }],
    ['POST', '/v1/sandbox/advance', { minutes: 5 }],
  ] as const)(
    'answers %s %s 404 on the production stage, naming the sandbox base URL',
    async (method, path, body) => {
      const response = await prod.call(method, path, { ...live, ...(body ? { body } : {}) });
      expectProblem(response, 404, 'resource_not_found');
      expect(response.json.detail).toBe('The sandbox tools exist only on the sandbox stage.');
      expect(response.json.hint).toBe(
        `call the sandbox base URL, ${credentials.sandbox_base_url}, with a test key (svc_test_…)`,
      );
    },
  );

  it('refuses a test key on the production stage (403 sandbox_key_on_production)', async () => {
    expectProblem(await prod.post('/v1/sandbox/reset', test), 403, 'sandbox_key_on_production');
  });
});

describe('POST /v1/sandbox/advance (the test clock)', () => {
  it('runs the minutes now through the pipeline and answers the snapshot after them', async () => {
    const before = await snapshot();
    const response = await sandbox.post<Snapshot>('/v1/sandbox/advance', { ...test, body: { minutes: 30 } });
    expect(response.status, response.text).toBe(200);
    const after = response.json;
    const advancedMs = Date.parse(after.clock.simulated_now) - Date.parse(before.clock.simulated_now);
    expect(advancedMs).toBeGreaterThanOrEqual(30 * 60_000);
    const sleeper = truck(after, 'sim-1');
    expect(sleeper.position?.recorded_at).toBe(after.clock.simulated_now);
    expect(sleeper.position).not.toEqual(truck(before, 'sim-1').position);
    // The breadcrumbs went through ingest: the vehicle's latest position is the simulated one.
    const located = await sandbox.get(`/v1/vehicles/${sleeper.vehicle_id}/location`, test);
    expect(located.status, located.text).toBe(200);
    expect(Date.parse(located.json.recorded_at)).toBeGreaterThanOrEqual(
      Date.parse(after.clock.simulated_now) - 15 * 60_000,
    );
    // …and the dispatcher started guidance, which the worker keeps.
    expect(after.vehicles.every((v) => v.guidance_id?.startsWith('gd_'))).toBe(true);
  }, 60_000);

  it.each([0, 1441, 2.5, '15'])('422 validation_failed for minutes %s', async (minutes) => {
    const response = await sandbox.post('/v1/sandbox/advance', { ...test, body: { minutes } });
    expectProblem(response, 422, 'validation_failed');
  });
});

describe('POST /v1/sandbox/vehicles/{id}/scenario', () => {
  it('202 scheduled; the scenario applies on the next simulated minute (offline: the truck goes silent)', async () => {
    const reefer = truck(await snapshot(), 'sim-3');
    const response = await sandbox.post(`/v1/sandbox/vehicles/${reefer.vehicle_id}/scenario`, {
      ...test,
      body: { scenario: 'offline' },
    });
    expect(response.status, response.text).toBe(202);
    expect(response.json).toMatchObject({
      object: 'sandbox_action',
      action: 'scenario',
      vehicle_id: reefer.vehicle_id,
      scenario: 'offline',
      status: 'scheduled',
    });
    expect(Date.parse(response.json.applies_at)).toBeGreaterThan(Date.now() - 60_000);

    const advanced = await sandbox.post<Snapshot>('/v1/sandbox/advance', { ...test, body: { minutes: 20 } });
    const silent = truck(advanced.json, 'sim-3');
    expect(silent.scenario).toBe('offline');
    expect(silent.state).toBe('offline');
    // Silent for 20 simulated minutes: past the offline threshold, on the simulation's clock.
    expect(advanced.json.recent_events.some((e) => e.type === 'vehicle.offline')).toBe(true);
  }, 60_000);

  it('takes ext:<external_ref>', async () => {
    const response = await sandbox.post('/v1/sandbox/vehicles/ext:sim-2/scenario', {
      ...test,
      body: { scenario: 'sensor_noise' },
    });
    expect(response.status, response.text).toBe(202);
    expect(
      truck(await snapshot(), 'sim-2').pending_scenario ?? truck(await snapshot(), 'sim-2').scenario,
    ).toBe('sensor_noise');
  });

  it('422 for an unknown scenario, listing the valid ones', async () => {
    const response = await sandbox.post('/v1/sandbox/vehicles/ext:sim-1/scenario', {
      ...test,
      body: { scenario: 'flat_tire' },
    });
    expectProblem(response, 422, 'validation_failed');
    for (const name of SCENARIO_NAMES) expect(response.text).toContain(name);
  });

  it('404 for a vehicle of another fleet, and for a sandbox vehicle that is not simulated', async () => {
    const created = await prod.post('/v1/vehicles', {
      ...live,
      body: { external_ref: `OTHER-${Date.now()}` },
    });
    expect(created.status, created.text).toBe(201);
    expectProblem(
      await sandbox.post(`/v1/sandbox/vehicles/${created.json.id}/scenario`, {
        ...test,
        body: { scenario: 'normal' },
      }),
      404,
      'resource_not_found',
    );
    const own = await sandbox.post('/v1/vehicles', { ...test, body: { external_ref: `OWN-${Date.now()}` } });
    expect(own.status, own.text).toBe(201);
    const notSimulated = await sandbox.post(`/v1/sandbox/vehicles/${own.json.id}/scenario`, {
      ...test,
      body: { scenario: 'normal' },
    });
    expectProblem(notSimulated, 404, 'resource_not_found');
    expect(notSimulated.json.hint).toMatch(/sim-1/);
  });

  it('400 invalid_public_id for a malformed id', async () => {
    const response = await sandbox.post('/v1/sandbox/vehicles/truck-1/scenario', {
      ...test,
      body: { scenario: 'normal' },
    });
    expectProblem(response, 400, 'invalid_public_id');
  });
});

describe('POST /v1/sandbox/reset', () => {
  it('puts the trucks back to their initial profiles with scenarios, guidance and history cleared', async () => {
    await sandbox.post('/v1/sandbox/vehicles/ext:sim-1/scenario', {
      ...test,
      body: { scenario: 'low_fuel' },
    });
    const advanced = await sandbox.post<Snapshot>('/v1/sandbox/advance', { ...test, body: { minutes: 5 } });
    const before = truck(advanced.json, 'sim-1');
    expect(before.scenario).toBe('low_fuel');
    expect(before.guidance_id).toMatch(/^gd_/);
    const response = await sandbox.post('/v1/sandbox/reset', test);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      object: 'sandbox_action',
      action: 'reset',
      fleet_id: credentials.fleets.company_sandbox,
      status: 'completed',
    });
    expect(response.json.vehicle_ids).toHaveLength(3);
    expect(response.json.deleted_items).toBeGreaterThan(0);

    const after = await snapshot();
    expect(after.vehicles.map((v) => v.scenario)).toEqual(['normal', 'normal', 'normal']);
    expect(truck(after, 'sim-3').fuel?.percent).toBe(24);
    // Never "driving" nowhere: parked at home with a position (or, if the local tick ran since, off).
    for (const vehicle of after.vehicles) {
      expect(vehicle.position, vehicle.external_ref).not.toBeNull();
      if (vehicle.state === 'parked') expect(vehicle.position?.speed_mph).toBe(0);
      else expect(vehicle.state).toBe('driving');
    }
    expect(Math.abs(Date.parse(after.clock.simulated_now) - Date.now())).toBeLessThan(10 * 60_000);
    // The old session went with the reset; the local tick may have started a new one since.
    const history = await sandbox.get(`/v1/vehicles/${before.vehicle_id}/guidance`, test);
    if (history.status === 200) expect(history.json.id).not.toBe(before.guidance_id);
    else expectProblem(history, 404, 'no_active_guidance');
  }, 60_000);
});
