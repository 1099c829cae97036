export type Freshness = 'live' | 'delayed' | 'stale';

/** A position or fuel level up to this old is `live`… */
export const LIVE_FOR_MS = 5 * 60_000;
/** …up to this old `delayed`, older `stale` (and guidance's phase reads `data_stale`). */
export const STALE_AFTER_MS = 30 * 60_000;

/** How old data is, for integrators and guidance (the FreshnessGrade schema). */
export function freshnessOf(recordedAtMs: number, nowMs: number): Freshness {
  const age = nowMs - recordedAtMs;
  if (age <= LIVE_FOR_MS) return 'live';
  if (age <= STALE_AFTER_MS) return 'delayed';
  return 'stale';
}
