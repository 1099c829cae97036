import { haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { DETECTION_POLICY } from './policy.ts';
import type { Detection, StopVisit, TrackerFix, WatchedStop } from './types.ts';

type VisitDetection = Extract<Detection, { kind: 'stop_arrived' | 'stop_departed' }>;

const MS_PER_MINUTE = 60_000;

/**
 * Arrival at and departure from watched stops. A vehicle stationary within the arrival radius
 * settles there; once it has stayed `minDwellMinutes` (measured between fixes) it has arrived,
 * dated from its first stationary fix there. It departs at the first fix beyond the departure
 * radius, or moving outside the arrival radius. Both times are "the first fix that showed it",
 * so their lags roughly cancel in the dwell.
 *
 * An arrived stop is kept as it was, whatever the watched stops become meanwhile; a stop that is
 * no longer watched while the vehicle is still settling is dropped.
 */
export function stepVisit(
  visit: StopVisit | null,
  fix: TrackerFix,
  stationary: boolean,
  watchedStops: readonly WatchedStop[],
): { visit: StopVisit | null; detections: VisitDetection[] } {
  const detections: VisitDetection[] = [];
  let current = visit;

  if (current?.phase === 'arrived') {
    if (!hasDeparted(current.stop, fix, stationary)) return { visit: current, detections };
    detections.push({
      kind: 'stop_departed',
      atMs: fix.recordedAtMs,
      stop: copyStop(current.stop),
      arrivedAtMs: current.arrivedAtMs,
      dwellMinutes: roundToTenth((fix.recordedAtMs - current.arrivedAtMs) / MS_PER_MINUTE),
    });
    current = null;
  }

  if (current?.phase === 'settling') {
    const settlingStop = current.stop;
    const stillSettling =
      stationary &&
      haversineMiles(settlingStop, fix) <= DETECTION_POLICY.arrivalRadiusMiles &&
      watchedStops.some((stop) => stop.stopId === settlingStop.stopId);
    if (stillSettling) {
      if (fix.recordedAtMs - current.sinceMs < DETECTION_POLICY.minDwellMinutes * MS_PER_MINUTE) {
        return { visit: current, detections };
      }
      detections.push({
        kind: 'stop_arrived',
        atMs: current.sinceMs,
        stop: copyStop(current.stop),
        latitude: current.latitude,
        longitude: current.longitude,
      });
      return { visit: { phase: 'arrived', stop: current.stop, arrivedAtMs: current.sinceMs }, detections };
    }
    current = null;
  }

  const nearby = stationary
    ? nearestStopWithin(fix, watchedStops, DETECTION_POLICY.arrivalRadiusMiles)
    : null;
  if (nearby === null) return { visit: null, detections };
  return {
    visit: {
      phase: 'settling',
      stop: copyStop(nearby),
      sinceMs: fix.recordedAtMs,
      latitude: fix.latitude,
      longitude: fix.longitude,
    },
    detections,
  };
}

function hasDeparted(stop: WatchedStop, fix: TrackerFix, stationary: boolean): boolean {
  const miles = haversineMiles(stop, fix);
  return (
    miles > DETECTION_POLICY.departureRadiusMiles ||
    (!stationary && miles > DETECTION_POLICY.arrivalRadiusMiles)
  );
}

/** The closest watched stop within `radiusMiles`; the first listed wins a tie. */
function nearestStopWithin(
  fix: TrackerFix,
  stops: readonly WatchedStop[],
  radiusMiles: number,
): WatchedStop | null {
  let nearest: WatchedStop | null = null;
  let nearestMiles = Number.POSITIVE_INFINITY;
  for (const stop of stops) {
    const miles = haversineMiles(stop, fix);
    if (miles <= radiusMiles && miles < nearestMiles) {
      nearest = stop;
      nearestMiles = miles;
    }
  }
  return nearest;
}

/**
 * Only the stop's own fields (callers may pass richer records, which must not leak into state),
 * and never an object shared between the state and a detection the caller may change.
 */
function copyStop(stop: WatchedStop): WatchedStop {
  return {
    stopId: stop.stopId,
    stationId: stop.stationId,
    name: stop.name,
    latitude: stop.latitude,
    longitude: stop.longitude,
  };
}
