import { haversineMiles } from '../../geo/distance.ts';
import { GUIDANCE_POLICY } from './policy.ts';
import type { GuidanceSession, GuidanceStop } from './session.ts';

/** The recommended stop a fueling happened at: near its station, not long after it was recommended. */
export function matchStop(
  session: GuidanceSession,
  fueling: { latitude: number; longitude: number; endedAtMs: number },
): GuidanceStop | null {
  const earliest = (stop: GuidanceStop) =>
    stop.recommendedAtMs - GUIDANCE_POLICY.fuelingMatchEarlyMinutes * 60_000;
  const latest = (stop: GuidanceStop) =>
    stop.recommendedAtMs + GUIDANCE_POLICY.fuelingMatchWindowHours * 3_600_000;
  return (
    session.stops.find(
      (stop) =>
        haversineMiles(stop, fueling) <= GUIDANCE_POLICY.fuelingMatchRadiusMiles &&
        fueling.endedAtMs >= earliest(stop) &&
        fueling.endedAtMs <= latest(stop),
    ) ?? null
  );
}
