import type { PositionFix } from '#shared/tracking/domain/positions.ts';

/** What one ingest request adds to its fleet's hourly health counters (one write per request). */
export interface IngestTally {
  accepted: number;
  withLevel: number;
  rejected: number;
  /** Gaps before the breadcrumbs this request stored, each to its vehicle's breadcrumb before it. */
  gapMsSum: number;
  gapCount: number;
}

/** One vehicle's breadcrumbs stored by a request, and where they take over from. */
export interface StoredBreadcrumbs {
  fixes: readonly PositionFix[];
  /**
   * The recorded time of the vehicle's latest position before this request (null: none; undefined:
   * not known), so the first breadcrumb of a request sent every minute has its gap too.
   */
  previousLatestAtMs?: number | null | undefined;
}

/**
 * Longer gaps are a parked truck or a device that was off, not the reporting cadence: left out so
 * one overnight stop does not make a 1-minute integration look like a 10-hour one. What is left is
 * the cadence while vehicles were reporting.
 */
export const MAX_CADENCE_GAP_MS = 60 * 60_000;

/**
 * The request's counts and cadence gaps. A gap is counted once, by the request that stored the
 * breadcrumb ending it: within a request between consecutive breadcrumbs of a vehicle, and from
 * the vehicle's previous latest position to the first of its breadcrumbs after it. A request with
 * one breadcrumb per vehicle (the usual real-time integration) therefore measures its cadence too.
 */
export function tallyIngest(stored: Iterable<StoredBreadcrumbs>, rejected: number): IngestTally {
  const tally: IngestTally = { accepted: 0, withLevel: 0, rejected, gapMsSum: 0, gapCount: 0 };
  for (const { fixes, previousLatestAtMs } of stored) {
    tally.accepted += fixes.length;
    tally.withLevel += fixes.filter((fix) => fix.fuelLevelPercent !== null).length;
    const times = fixes.map((fix) => ({ atMs: fix.recordedAtMs, sent: true }));
    if (typeof previousLatestAtMs === 'number') times.push({ atMs: previousLatestAtMs, sent: false });
    times.sort((a, b) => a.atMs - b.atMs);
    for (let i = 1; i < times.length; i += 1) {
      const { atMs, sent } = times[i] as { atMs: number; sent: boolean };
      // The gap ending at the previous position was counted by the request that stored it.
      if (!sent) continue;
      const gap = atMs - (times[i - 1] as { atMs: number }).atMs;
      if (gap > 0 && gap <= MAX_CADENCE_GAP_MS) {
        tally.gapMsSum += gap;
        tally.gapCount += 1;
      }
    }
  }
  return tally;
}
