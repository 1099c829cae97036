/**
 * The `GET /v1/sandbox/simulation` snapshot as the page reads it (docs/sandbox-page.md). Only the
 * members the page draws are typed; the API may add more.
 */
export interface SandboxSnapshot {
  object: 'sandbox_simulation';
  fleet_id: string;
  status: string;
  clock: {
    simulated_now: string;
    tick_interval_seconds: number;
    last_tick_at: string | null;
    next_tick_at: string | null;
  };
  vehicles: SimulatedVehicle[];
  recent_events: RecentEvent[];
}

export interface SimulatedVehicle {
  vehicle_id: string;
  external_ref: string;
  name: string;
  profile: { id: string; title: string; tank_size_gallons: number; mpg: number };
  scenario: string;
  /** Set by POST …/scenario until the next tick applies it. */
  pending_scenario?: string | null;
  state: string;
  position: {
    latitude: number;
    longitude: number;
    heading: number;
    speed_mph: number;
    recorded_at: string;
  } | null;
  fuel: { percent: number; gallons: number } | null;
  destination: { name: string; latitude: number; longitude: number } | null;
  route_polyline: string | null;
  trip_id: string | null;
  guidance_id: string | null;
  guidance_phase: string | null;
  next_stop: {
    station_id: string;
    name: string;
    latitude: number;
    longitude: number;
    gallons: number;
  } | null;
}

export interface RecentEvent {
  id: string;
  type: string;
  occurred_at: string;
  vehicle_id: string | null;
}

/** The scenario names `POST /v1/sandbox/vehicles/{id}/scenario` accepts (issue 14). */
export const SCENARIOS = [
  'normal',
  'low_fuel',
  'skips_recommendations',
  'offline',
  'no_fuel_sensor',
  'sensor_noise',
] as const;
