import { type ExamplesFor, exampleId, exampleStationId, rejected } from '#shared/api/example.ts';
import { IDS, NOW } from '#shared/api/example-fixtures.ts';
import { simRoute } from '../domain/demo-routes.ts';
import { SIM_CITIES } from '../domain/profiles.ts';
import { sandboxOnlyError } from '../usecases/sandbox-tools.ts';
import type { sandboxOperations } from './operations.ts';
import { advanceBody, scenarioBody } from './schemas.ts';

const SIM_CREATED_AT = '2026-11-21T20:00:00.000000Z';
/** Where the example problem points: the sandbox's address, a reserved name as the servers' is. */
const EXAMPLE_SANDBOX_BASE_URL = 'https://sandbox.fleet-fuel.invalid';
const SIM = {
  sleeper: exampleId('vehicle', SIM_CREATED_AT, 'sim-1'),
  dayCab: exampleId('vehicle', SIM_CREATED_AT, 'sim-2'),
  reefer: exampleId('vehicle', SIM_CREATED_AT, 'sim-3'),
};
const {
  'oklahoma-city-ok': OKLAHOMA_CITY,
  'denver-co': DENVER,
  'dallas-tx': DALLAS,
  'houston-tx': HOUSTON,
  'memphis-tn': MEMPHIS,
  'little-rock-ar': LITTLE_ROCK,
} = SIM_CITIES;

/** The twin's simulated clock two and a half hours after provisioning. */
const SIM_NOW = '2026-11-21T22:30:00.000000Z';
/** A vehicle's position as the snapshot shows it: reported at the simulated now. */
const positionNow = (position: {
  latitude: number;
  longitude: number;
  heading: number;
  speed_mph: number;
}) => ({
  ...position,
  recorded_at: SIM_NOW,
});

/** The snapshot of a twin two and a half simulated hours after provisioning. */
const snapshot = {
  object: 'sandbox_simulation',
  fleet_id: IDS.fleet,
  status: 'running',
  clock: {
    simulated_now: SIM_NOW,
    tick_interval_seconds: 60,
    last_tick_at: '2026-11-21T22:26:00.412000Z',
    next_tick_at: '2026-11-21T22:27:00.412000Z',
  },
  vehicles: [
    {
      vehicle_id: SIM.sleeper,
      external_ref: 'sim-1',
      name: 'Long-haul sleeper (sim-1)',
      profile: { id: 'long_haul_sleeper', title: 'Long-haul sleeper', tank_size_gallons: 300, mpg: 6.8 },
      scenario: 'normal',
      pending_scenario: null,
      state: 'driving',
      position: positionNow({ latitude: 37.14632, longitude: -97.30114, heading: 2, speed_mph: 64 }),
      fuel: { percent: 65.9, gallons: 197.7 },
      destination: DENVER,
      route_polyline: simRoute(OKLAHOMA_CITY, DENVER).polyline,
      trip_id: null,
      guidance_id: IDS.guidance,
      guidance_phase: 'no_stop_needed',
      next_stop: null,
    },
    {
      vehicle_id: SIM.dayCab,
      external_ref: 'sim-2',
      name: 'Regional day cab (sim-2)',
      profile: { id: 'regional_day_cab', title: 'Regional day cab', tank_size_gallons: 150, mpg: 7.4 },
      scenario: 'sensor_noise',
      pending_scenario: null,
      state: 'driving',
      position: positionNow({ latitude: 31.27411, longitude: -96.06802, heading: 148, speed_mph: 60 }),
      fuel: { percent: 47.5, gallons: 71.3 },
      destination: HOUSTON,
      route_polyline: simRoute(DALLAS, HOUSTON).polyline,
      trip_id: null,
      guidance_id: exampleId('guidance', SIM_CREATED_AT, 'sim-2-guidance'),
      guidance_phase: 'no_stop_needed',
      next_stop: null,
    },
    {
      vehicle_id: SIM.reefer,
      external_ref: 'sim-3',
      name: 'Reefer, starts low on fuel (sim-3)',
      profile: {
        id: 'reefer_low_fuel',
        title: 'Reefer, starts low on fuel',
        tank_size_gallons: 200,
        mpg: 5.9,
      },
      scenario: 'normal',
      pending_scenario: 'offline',
      state: 'fueling',
      position: positionNow({ latitude: 34.78211, longitude: -92.01874, heading: 0, speed_mph: 0 }),
      fuel: { percent: 61.2, gallons: 122.4 },
      destination: LITTLE_ROCK,
      route_polyline: simRoute(MEMPHIS, LITTLE_ROCK).polyline,
      trip_id: null,
      guidance_id: exampleId('guidance', SIM_CREATED_AT, 'sim-3-guidance'),
      guidance_phase: 'at_stop',
      next_stop: {
        station_id: exampleStationId('sim-example-i40-lonoke'),
        name: "Love's Travel Stop Lonoke (I-40 exit 175)",
        latitude: 34.78211,
        longitude: -92.01874,
        gallons: 146,
      },
    },
  ],
  recent_events: [
    {
      id: exampleId('event', '2026-11-21T22:26:01.020000Z', 'sim-arrived'),
      type: 'vehicle.stop_arrived',
      occurred_at: '2026-11-21T22:26:01.020000Z',
      vehicle_id: SIM.reefer,
    },
    {
      id: exampleId('event', '2026-11-21T22:14:00.880000Z', 'sim-updated'),
      type: 'guidance.updated',
      occurred_at: '2026-11-21T22:14:00.880000Z',
      vehicle_id: SIM.reefer,
    },
  ],
};

export const sandboxExamples = {
  resetSandbox: {
    responses: {
      200: {
        object: 'sandbox_action',
        action: 'reset',
        fleet_id: IDS.fleet,
        status: 'completed',
        completed_at: NOW,
        vehicle_ids: [SIM.sleeper, SIM.dayCab, SIM.reefer],
        deleted_items: 412,
      },
    },
    problem: sandboxOnlyError(EXAMPLE_SANDBOX_BASE_URL),
  },
  setSandboxScenario: {
    request: { params: { id: SIM.reefer }, body: { scenario: 'offline' } },
    responses: {
      202: {
        object: 'sandbox_action',
        action: 'scenario',
        vehicle_id: SIM.reefer,
        scenario: 'offline',
        status: 'scheduled',
        applies_at: '2026-11-21T22:27:00.412000Z',
      },
    },
    problem: rejected('body', scenarioBody, { scenario: 'flat_tire' }),
  },
  getSandboxSimulation: {
    responses: { 200: snapshot },
    problem: sandboxOnlyError(EXAMPLE_SANDBOX_BASE_URL),
  },
  advanceSandbox: {
    request: { body: { minutes: 60 } },
    responses: { 200: { ...snapshot, requested_minutes: 60, advanced_minutes: 60 } },
    problem: rejected('body', advanceBody, { minutes: 1441 }),
  },
} satisfies ExamplesFor<typeof sandboxOperations>;
