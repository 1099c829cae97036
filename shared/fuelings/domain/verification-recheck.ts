import { VERIFICATION_POLICY } from './verification.ts';

/*
 * Late breadcrumbs re-check an `unverified` purchase once. A truck that lost its connection uploads
 * its buffered breadcrumbs after the card network reported the purchase: the verdict reached on
 * receipt saw nothing, the breadcrumbs that came since may confirm or contradict it. Judged on the
 * breadcrumbs' recorded times, never on when they arrived, so a day fed live (breadcrumb by
 * breadcrumb) and the same day uploaded in one burst re-check alike. Pure: the worker keeps the
 * pending purchases on the vehicle's tracking item and loads the data for those due.
 */

/** A reported purchase whose verdict was `unverified`, waiting for the breadcrumbs around it. */
export interface PendingVerification {
  fuelingId: string;
  /** The purchase's `fueled_at` as its record keeps it (with the id, where the record is kept). */
  fueledAt: string;
  /** A breadcrumb recorded inside its window was consumed since the verdict (by an earlier cycle). */
  heard: boolean;
}

export const RECHECK_POLICY = {
  /**
   * The window a re-check waits to see whole: the widest the verification reads (tank levels and
   * detected fills, `VERIFICATION_POLICY.levelWindowMinutes` either side of `fueled_at`).
   */
  windowMinutes: VERIFICATION_POLICY.levelWindowMinutes,
  /**
   * The newest purchases kept waiting per vehicle: a vehicle that never reports breadcrumbs would
   * otherwise keep every purchase it was ever reported for. A truck buys fuel a few times a day.
   */
  maxPending: 20,
} as const;

const MS_PER_MINUTE = 60_000;

/** The window of a pending purchase: `fueled_at` ± the re-check window. */
export function recheckWindow(pending: Pick<PendingVerification, 'fueledAt'>): {
  fromMs: number;
  toMs: number;
} {
  const atMs = Date.parse(pending.fueledAt);
  const span = RECHECK_POLICY.windowMinutes * MS_PER_MINUTE;
  return { fromMs: atMs - span, toMs: atMs + span };
}

/**
 * The pending list with one more purchase, the newest {@link RECHECK_POLICY.maxPending} by
 * `fueled_at`; one already there stays as it is (a re-sent purchase keeps what it heard).
 */
export function withPending(
  pending: readonly PendingVerification[],
  added: Pick<PendingVerification, 'fuelingId' | 'fueledAt'>,
): PendingVerification[] {
  const known = pending.some((entry) => entry.fuelingId === added.fuelingId);
  return [...pending, ...(known ? [] : [{ ...added, heard: false }])]
    .sort((a, b) => (a.fueledAt < b.fueledAt ? 1 : a.fueledAt > b.fueledAt ? -1 : 0))
    .slice(0, RECHECK_POLICY.maxPending);
}

/**
 * What a worker cycle does with the pending purchases, given the breadcrumbs it consumed
 * (`batchRecordedAtMs`) and the vehicle's newest breadcrumb:
 * - a breadcrumb of the batch inside a purchase's window marks it heard;
 * - once the newest breadcrumb is at or past the window's end, every breadcrumb of the window
 *   could be in: a heard purchase is `due` (re-checked now, once), one that heard nothing leaves
 *   (later batches only bring newer breadcrumbs; a re-check would find what the first check found);
 * - the others keep waiting.
 */
export function recheckStep(
  pending: readonly PendingVerification[],
  batchRecordedAtMs: readonly number[],
  newestRecordedAtMs: number,
): { due: PendingVerification[]; waiting: PendingVerification[] } {
  const due: PendingVerification[] = [];
  const waiting: PendingVerification[] = [];
  for (const entry of pending) {
    const { fromMs, toMs } = recheckWindow(entry);
    const heard = entry.heard || batchRecordedAtMs.some((atMs) => atMs >= fromMs && atMs <= toMs);
    if (newestRecordedAtMs < toMs) waiting.push({ ...entry, heard });
    else if (heard) due.push({ ...entry, heard });
  }
  return { due, waiting };
}
