import type { PositionFix } from '../telematics/positions.ts';

/** What one ingest request adds to its fleet's hourly health counters (one write per request). */
export interface IngestTally {
  accepted: number;
  withLevel: number;
  rejected: number;
  /** Gaps between consecutive accepted breadcrumbs of one vehicle in this request. */
  gapMsSum: number;
  gapCount: number;
}

/**
 * Longer gaps are a parked truck or a device that was off, not the reporting cadence: left out so
 * one overnight stop does not make a 1-minute integration look like a 10-hour one.
 */
export const MAX_CADENCE_GAP_MS = 60 * 60_000;

export function tallyIngest(
  acceptedByVehicle: Iterable<readonly PositionFix[]>,
  rejected: number,
): IngestTally {
  const tally: IngestTally = { accepted: 0, withLevel: 0, rejected, gapMsSum: 0, gapCount: 0 };
  for (const fixes of acceptedByVehicle) {
    tally.accepted += fixes.length;
    tally.withLevel += fixes.filter((fix) => fix.fuelLevelPercent !== null).length;
    const times = fixes.map((fix) => fix.recordedAtMs).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i += 1) {
      const gap = (times[i] as number) - (times[i - 1] as number);
      if (gap > 0 && gap <= MAX_CADENCE_GAP_MS) {
        tally.gapMsSum += gap;
        tally.gapCount += 1;
      }
    }
  }
  return tally;
}
