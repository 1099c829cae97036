/** The scorecard's window: the current UTC hour and the 23 before it (the hour counters it reads). */
export const HEALTH_WINDOW_HOURS = 24;
const HOUR_MS = 3_600_000;

export function healthWindow(nowMs: number): { fromMs: number; toMs: number } {
  return { fromMs: Math.floor(nowMs / HOUR_MS) * HOUR_MS - (HEALTH_WINDOW_HOURS - 1) * HOUR_MS, toMs: nowMs };
}

/** `2026-11-23T14`: the UTC hour of an instant. */
export const hourOf = (atMs: number) => new Date(atMs).toISOString().slice(0, 13);
/** `2026-11-23`: the UTC day of an instant. */
export const dayOf = (atMs: number) => new Date(atMs).toISOString().slice(0, 10);
