import type * as z from 'zod/mini';
import { phaseAsRead } from '#shared/guidance/domain/session.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { simRoute } from '../domain/demo-routes.ts';
import { profileOf } from '../domain/profiles.ts';
import { nextTickAtMs, TICK_INTERVAL_SECONDS } from '../domain/simulation.ts';
import { fuelPercentOf, truckState } from '../domain/truck.ts';
import type { AdvanceView, SimulationView } from '../usecases/sandbox-tools.ts';
import type {
  advanceResultSchema,
  resetActionSchema,
  scenarioActionSchema,
  simulationSchema,
} from './schemas.ts';

const round1 = (value: number) => Math.round(value * 10) / 10;
const timestampOrNull = (ms: number | null) => (ms === null ? null : formatTimestamp(ms));

/** The snapshot (docs/sandbox.md): the page and integrators' tests read exactly these names. */
export function simulationResource(
  view: SimulationView,
  wallNowMs: number,
): z.input<typeof simulationSchema> {
  const { simulation, sessions, events } = view;
  // Guidance freshness is judged on the simulation's clock, which is the breadcrumbs' clock.
  const judgedAtMs = Math.max(wallNowMs, simulation.simulatedNowMs);
  return {
    object: 'sandbox_simulation',
    fleet_id: simulation.fleetId,
    status: simulation.status,
    clock: {
      simulated_now: formatTimestamp(simulation.simulatedNowMs),
      tick_interval_seconds: TICK_INTERVAL_SECONDS,
      last_tick_at: timestampOrNull(simulation.lastTickAtMs),
      next_tick_at: timestampOrNull(nextTickAtMs(simulation)),
    },
    vehicles: simulation.trucks.map((truck, index) => {
      const profile = profileOf(truck.profileId);
      const session = sessions[index] ?? null;
      const stop = session?.stops[0] ?? null;
      const report = truck.lastReport;
      return {
        vehicle_id: truck.vehicleId,
        external_ref: truck.externalRef,
        name: truck.name,
        profile: {
          id: profile.id,
          title: profile.title,
          tank_size_gallons: profile.tankSizeGallons,
          mpg: profile.mpg,
        },
        scenario: truck.scenario,
        pending_scenario: truck.pendingScenario,
        state: truckState(truck),
        position: report && {
          latitude: report.latitude,
          longitude: report.longitude,
          heading: report.headingDegrees,
          speed_mph: report.speedMph,
          recorded_at: formatTimestamp(report.recordedAtMs),
        },
        // The tank's true content (the breadcrumbs carry the sensor's reading, slosh and all).
        fuel: { percent: round1(fuelPercentOf(truck)), gallons: round1(truck.fuelGallons) },
        destination: { ...truck.leg.destination },
        route_polyline: simRoute(truck.leg.origin, truck.leg.destination).polyline,
        trip_id: session?.tripId ?? null,
        guidance_id: session?.id ?? null,
        guidance_phase: session ? phaseAsRead(session, judgedAtMs) : null,
        next_stop: stop && {
          station_id: stop.stationId,
          name: stop.name,
          latitude: stop.latitude,
          longitude: stop.longitude,
          gallons: stop.gallonsToBuy,
        },
      };
    }),
    recent_events: events.map((event) => ({
      id: event.id,
      type: event.type,
      occurred_at: event.occurred_at,
      vehicle_id: (event.data as { vehicle_id?: string }).vehicle_id ?? null,
    })),
  };
}

/** POST /v1/sandbox/advance: the snapshot reached, and how far the advance got. */
export function advanceResultResource(
  view: AdvanceView,
  wallNowMs: number,
): z.input<typeof advanceResultSchema> {
  return {
    ...simulationResource(view, wallNowMs),
    requested_minutes: view.requestedMinutes,
    advanced_minutes: view.advancedMinutes,
  };
}

export function scenarioActionResource(action: {
  vehicleId: string;
  scenario: z.input<typeof scenarioActionSchema>['scenario'];
  appliesAtMs: number;
}): z.input<typeof scenarioActionSchema> {
  return {
    object: 'sandbox_action',
    action: 'scenario',
    vehicle_id: action.vehicleId,
    scenario: action.scenario,
    status: 'scheduled',
    applies_at: formatTimestamp(action.appliesAtMs),
  };
}

export function resetActionResource(result: {
  fleetId: string;
  vehicleIds: string[];
  deletedItems: number;
  completedAtMs: number;
}): z.input<typeof resetActionSchema> {
  return {
    object: 'sandbox_action',
    action: 'reset',
    fleet_id: result.fleetId,
    status: 'completed',
    completed_at: formatTimestamp(result.completedAtMs),
    vehicle_ids: result.vehicleIds,
    deleted_items: result.deletedItems,
  };
}
