/**
 * How far from the moment of the request a trip's planned times may lie. A dispatch plan is for
 * the coming weeks; a year out or in 1970 is a typo or a unit mix-up (epoch seconds read as a
 * date), and such a trip could still be started, so its times are refused like breadcrumbs' and
 * fuelings' are. The past reaches as far back as position history does (90 days): a trip entered
 * after the fact still finds the breadcrumbs it covers.
 */
export const TRIP_TIME_WINDOW = { pastDays: 90, futureDays: 365 } as const;

const DAY_MS = 86_400_000;

/** A planned time as sent: the field it came in (`stops.2.planned_arrival_at`) and its instant. */
export interface PlannedTime {
  field: string;
  atMs: number;
}

export interface TripTimeProblem {
  field: string;
  message: string;
}

/** The accepted instants for a request made at `nowMs`, both ends inclusive. */
export function tripTimeRange(nowMs: number): { fromMs: number; toMs: number } {
  return {
    fromMs: nowMs - TRIP_TIME_WINDOW.pastDays * DAY_MS,
    toMs: nowMs + TRIP_TIME_WINDOW.futureDays * DAY_MS,
  };
}

/**
 * The planned times outside the window, each with a message that names the accepted range:
 * "must be between 2026-08-25T12:00:00Z and 2027-11-23T12:00:00Z (90 days before to 365 days
 * after now)".
 */
export function tripTimeProblems(times: readonly PlannedTime[], nowMs: number): TripTimeProblem[] {
  const { fromMs, toMs } = tripTimeRange(nowMs);
  const message = `must be between ${instant(fromMs)} and ${instant(toMs)} (${TRIP_TIME_WINDOW.pastDays} days before to ${TRIP_TIME_WINDOW.futureDays} days after now)`;
  return times
    .filter(({ atMs }) => !(atMs >= fromMs && atMs <= toMs))
    .map(({ field }) => ({ field, message }));
}

/** To the second: the range is a rule of thumb, not a deadline. */
function instant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
