import { formatTimestamp } from '#shared/kernel/time.ts';
import { usagePeriod } from './plans.ts';

/**
 * The arithmetic of the two monthly limits (docs/limits.md): the per-family quota and the station
 * budget. Both count within the UTC calendar month and reset on the first of the next one.
 */

/** What a limit leaves after `used`; never negative (a plan lowered mid-month leaves 0, not -n). */
export function remaining(limit: number, used: number): number {
  return Math.max(0, limit - used);
}

/**
 * The highest count already used that still admits `amount` more: the bound of the counter's
 * conditional ADD. Negative when `amount` alone exceeds the limit (then nothing admits it).
 */
export function admissionCeiling(limit: number, amount: number): number {
  return limit - amount;
}

/** When this month's counters restart: the first instant of the next UTC month. */
export function usageResetAt(nowMs: number): Date {
  return usagePeriod(nowMs).end;
}

/** The hint of a monthly-limit problem: what to do and when the limit clears by itself. */
export function monthlyLimitHint(advice: string, nowMs: number): string {
  return `${advice}; the count resets at ${formatTimestamp(usageResetAt(nowMs))}`;
}
