import { stableTimedId } from '../../platform/ids.ts';
import { formatTimestamp } from '../../platform/time.ts';
import type { GuidanceStop } from '../guidance/session.ts';
import type { Detection } from './types.ts';

/** A fueling on the fleet's record: detected from a tank-level rise, or reported. */
export interface Fueling {
  id: string;
  vehicleId: string;
  source: 'detected' | 'reported';
  gallons: number | null;
  fueledAt: string;
  latitude: number | null;
  longitude: number | null;
  fuelLevelBeforePercent: number | null;
  fuelLevelAfterPercent: number | null;
  /** The recommended stop it matched (fueling.matched), if any. */
  guidanceId: string | null;
  stopId: string | null;
  stationId: string | null;
  createdAt: string;
}

/** A detected fueling as the record keeps it, with the recommended stop it matched, if any. */
export function detectedFueling(
  vehicleId: string,
  detection: Extract<Detection, { kind: 'fueling' }>,
  matched: { guidanceId: string; stop: GuidanceStop } | null,
  nowMs: number,
): Fueling {
  return {
    // Fixed by the rise itself, so a worker that detects it twice writes one record.
    id: stableTimedId('fueling', detection.startedAtMs, `${vehicleId}:${detection.startedAtMs}`),
    vehicleId,
    source: 'detected',
    gallons: detection.gallons,
    fueledAt: formatTimestamp(detection.endedAtMs),
    latitude: detection.latitude,
    longitude: detection.longitude,
    fuelLevelBeforePercent: detection.levelBeforePercent,
    fuelLevelAfterPercent: detection.levelAfterPercent,
    guidanceId: matched?.guidanceId ?? null,
    stopId: matched?.stop.id ?? null,
    stationId: matched?.stop.stationId ?? null,
    createdAt: formatTimestamp(nowMs),
  };
}
