import { DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT } from '#shared/fleets/domain/fleet.ts';
import type { TruckProfileSettings } from '#shared/fleets/domain/truck-profile.ts';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import { freshnessOf } from '#shared/tracking/domain/freshness.ts';
import {
  type FuelAssumption,
  fuelLevelNow,
  type LevelBreadcrumb,
} from '#shared/tracking/domain/fuel-level.ts';
import type { LatestPosition } from '#shared/tracking/domain/positions.ts';
import { currentStop, lastFix, type TrackerState } from '#shared/tracking/domain/tracker.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import type { FuelReading, GuidanceSession } from './session.ts';

/** What the plan is computed from: the vehicle as it is now. */
export interface VehicleSnapshot {
  vehicle: Pick<Vehicle, 'id' | 'tankSizeGallons' | 'estimatedMpg'> & {
    /** The vehicle's override of the fleet's fuel_tax_treatment, when it has one. */
    fuelTaxTreatment?: FuelTaxTreatment | null | undefined;
    /** The vehicle's own truck profile (absent: nothing set, the fleet's applies). */
    truckProfile?: TruckProfileSettings | null | undefined;
  };
  position: { latitude: number; longitude: number; recordedAtMs: number } | null;
  /** The direction of travel at `position` (shared/tracking/domain/heading.ts); null: standing still or unknown. */
  headingDegrees?: number | null;
  fuel: FuelReading | null;
  /**
   * The session's fuel assumption, anchored where the truck is now when this is the first reading
   * that used it (the session keeps it from then on).
   */
  fuelAssumption?: FuelAssumption;
  /** The station the vehicle dwells at now (detection's current stop), if any. */
  dwellingAtStationId: string | null;
  /**
   * Stations the vehicle departed from in the breadcrumbs of this cycle (the worker's detections);
   * the plan made after a departure starts afresh without them.
   */
  leftStationIds?: readonly string[];
  /** A fueling was detected in the breadcrumbs of this cycle: the plan made for the old level is void. */
  refueled?: boolean;
}

/**
 * The vehicle as guidance sees it: the detection state's position once it has consumed a
 * breadcrumb, else the stored latest position (a session started before the worker's first
 * cycle); the fuel level by the rule trips and routes share ({@link fuelLevelNow}), from the
 * session's assumption when the truck never reported one.
 */
export function snapshotOf(
  vehicle: VehicleSnapshot['vehicle'],
  tracker: TrackerState,
  latest: LatestPosition | null,
  session: Pick<GuidanceSession, 'fuelAssumption' | 'createdAtMs'>,
  /** The breadcrumbs the detection state has not consumed (default: the latest position alone). */
  unconsumed: readonly LevelBreadcrumb[] = latest ? [latest] : [],
): VehicleSnapshot {
  const fix = lastFix(tracker);
  const useLatest = latest !== null && (fix === null || latest.recordedAtMs > fix.recordedAtMs);
  const position = useLatest
    ? { latitude: latest.latitude, longitude: latest.longitude, recordedAtMs: latest.recordedAtMs }
    : fix && { latitude: fix.latitude, longitude: fix.longitude, recordedAtMs: fix.recordedAtMs };
  const assumption = session.fuelAssumption ?? {
    percent: DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    atMs: session.createdAtMs,
    odometerMiles: null,
  };
  const level = fuelLevelNow(
    tracker,
    unconsumed,
    { tankGallons: vehicle.tankSizeGallons, mpg: vehicle.estimatedMpg },
    assumption,
  );
  const anchored =
    level?.source === 'assumed' && assumption.odometerMiles === null && position
      ? { ...assumption, atMs: level.asOfMs, odometerMiles: level.odometerMiles }
      : assumption;
  // The latest position's heading, when the snapshot stands where the latest position does.
  const headingDegrees =
    latest !== null && position && position.recordedAtMs === latest.recordedAtMs
      ? (latest.travelHeadingDegrees ?? null)
      : null;
  return {
    vehicle,
    position: position ?? null,
    headingDegrees,
    // Before any breadcrumb there is nothing the level would describe.
    fuel:
      level && position
        ? {
            percent: level.percent,
            source: level.source,
            reportedAtMs: level.reportedAtMs,
            asOfMs: level.asOfMs,
            milesSince: level.milesSince,
          }
        : null,
    fuelAssumption: anchored,
    dwellingAtStationId: currentStop(tracker)?.stationId ?? null,
  };
}

/**
 * The time a plan made now from the snapshot stands at (its stops' recommended_at, the session's
 * plan_updated_at): the recorded_at of the breadcrumb it is made from, as in the worker, unless that
 * breadcrumb is stale (a truck parked overnight, a recorded day posted before the session started):
 * then the moment of the request, as nothing newer says when the advice was given.
 */
export function planTimeOf(snapshot: Pick<VehicleSnapshot, 'position'>, nowMs: number): number {
  const recordedAtMs = snapshot.position?.recordedAtMs;
  if (recordedAtMs === undefined || recordedAtMs > nowMs) return nowMs;
  return freshnessOf(recordedAtMs, nowMs) === 'stale' ? nowMs : recordedAtMs;
}
