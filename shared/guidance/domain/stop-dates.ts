import type { GuidanceSession } from './session.ts';

/**
 * The session with its stops dated by the event time of the plan that showed them, as the worker
 * steps through a breadcrumb recorded at `atMs`. A plan made at request time from a stale position
 * (a recorded day posted before guidance started: planTimeOf) is dated by the request, as nothing
 * newer said when the advice was given; a breadcrumb recorded before that date shows the day being
 * replayed, so its stops are re-dated to the recorded_at of the position that plan was made from,
 * and a fill of that day is judged on the day's own times. A live session's stops are dated before
 * its next breadcrumb and keep their date.
 */
export function stopsDatedByEventTime(session: GuidanceSession, atMs: number): GuidanceSession {
  if (!session.stops.some((stop) => stop.recommendedAtMs > atMs)) return session;
  const shownAtMs = Math.min(session.position?.recordedAtMs ?? atMs, atMs);
  return {
    ...session,
    stops: session.stops.map((stop) =>
      stop.recommendedAtMs > atMs ? { ...stop, recommendedAtMs: shownAtMs } : stop,
    ),
  };
}
