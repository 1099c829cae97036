/** The savings report covers whole UTC days, at most this many (30 by default). */
export const REPORT_PERIOD = { defaultDays: 30, maxDays: 366 } as const;

const DAY_MS = 86_400_000;

export interface ReportPeriod {
  /** First and last UTC day covered, `YYYY-MM-DD`, both included. */
  fromDay: string;
  toDay: string;
  /** Start of the first day and start of the day after the last (the period is [fromMs, toMs)). */
  fromMs: number;
  toMs: number;
  days: number;
}

export type PeriodResult =
  | { ok: true; period: ReportPeriod }
  | { ok: false; field: 'from' | 'to'; message: string };

const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const BOUND_FORMAT = 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time, on a day the calendar has';

/**
 * A `YYYY-MM-DD` date or an RFC 3339 date-time, as epoch ms; NaN when neither, or when its date is
 * not on the calendar (`2026-02-31`, which Date.parse would quietly roll into March).
 */
function parseBound(value: string): number {
  const parts = DATE.exec(value) ?? DATE_TIME.exec(value);
  if (!parts) return Number.NaN;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day
  ) {
    return Number.NaN;
  }
  return DATE.test(value) ? calendar.getTime() : Date.parse(value);
}

/**
 * The report's period from the query: each bound a date or a date-time, counted in whole UTC days
 * (the report is kept per vehicle and UTC day; a date-time stands for its day). Without `to`, up to
 * today; without `from`, the 30 days ending with `to`. `to` on a day before `from`'s (a `from`
 * after today when `to` is left out), or more than 366 days, is refused with the field to fix.
 */
export function reportPeriod(
  query: { from?: string | undefined; to?: string | undefined },
  nowMs: number,
): PeriodResult {
  const toMs = query.to === undefined ? nowMs : parseBound(query.to);
  if (Number.isNaN(toMs)) return { ok: false, field: 'to', message: BOUND_FORMAT };
  const lastDay = dayStart(toMs);
  const fromMs =
    query.from === undefined ? lastDay - (REPORT_PERIOD.defaultDays - 1) * DAY_MS : parseBound(query.from);
  if (Number.isNaN(fromMs)) return { ok: false, field: 'from', message: BOUND_FORMAT };
  const firstDay = dayStart(fromMs);
  // Days, not instants: `to=2026-11-01` covers all of that day, `from=2026-11-01T12:00Z` included.
  if (lastDay < firstDay) {
    return query.to === undefined
      ? { ok: false, field: 'from', message: 'must not be after today (to defaults to today)' }
      : { ok: false, field: 'to', message: 'must not be before from' };
  }
  const days = (lastDay - firstDay) / DAY_MS + 1;
  if (days > REPORT_PERIOD.maxDays) {
    return {
      ok: false,
      field: 'from',
      // A predicate, like every field message: the problem reads `from must …` and `fix from: it must …`.
      message: `must be within ${REPORT_PERIOD.maxDays} days of to (the period covers ${days} days; at most ${REPORT_PERIOD.maxDays} are reported)`,
    };
  }
  return {
    ok: true,
    period: {
      fromDay: utcDay(firstDay),
      toDay: utcDay(lastDay),
      fromMs: firstDay,
      toMs: lastDay + DAY_MS,
      days,
    },
  };
}

/** Every UTC day of the period, oldest first. */
export function daysOf(period: ReportPeriod): string[] {
  return Array.from({ length: period.days }, (_, i) => utcDay(period.fromMs + i * DAY_MS));
}
