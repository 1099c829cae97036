/**
 * What to say about a value sent where an RFC 3339 date-time belongs (`recorded_at`, `fueled_at`,
 * `planned_start_at`…), by what the value looks like: the mistakes integrators make are a local
 * time without its offset (valid ISO 8601, but it names no instant), a date alone, and epoch
 * seconds or milliseconds, as a number or a string of digits.
 */

export const DATE_TIME_EXAMPLE = '2026-11-23T14:05:00Z';

const GENERIC = `must be an RFC 3339 date-time, e.g. ${DATE_TIME_EXAMPLE}`;
/** Date, time with optional fraction, then nothing: no Z, no ±hh:mm. */
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/i;
const WITH_SPACE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DIGITS = /^\d+(?:\.\d+)?$/;
/** Epoch values between 1973 and 5138, as seconds or as milliseconds; outside, a number is just a number. */
const EPOCH_SECONDS = { min: 1e8, max: 1e11 };
const EPOCH_MILLISECONDS = { min: 1e11, max: 1e14 };

/**
 * The field's message (it reads after the field name) for `input`, which failed to be a date-time.
 *
 * @example
 * dateTimeMessage('2026-11-27T10:00:00'); // 'has no UTC offset: end it with Z (UTC) or the offset of its time zone, e.g. 2026-11-27T10:00:00Z or 2026-11-27T10:00:00-06:00'
 * dateTimeMessage(1764237600000); // 'looks like epoch milliseconds (2025-11-27T10:00:00.000Z); send an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z'
 */
export function dateTimeMessage(input: unknown): string {
  if (typeof input === 'number') return epochMessage(input) ?? `${GENERIC} (a string, not a number)`;
  if (typeof input !== 'string') return GENERIC;
  const value = input.trim();
  if (DIGITS.test(value)) return epochMessage(Number(value)) ?? GENERIC;
  if (DATE_ONLY.test(value)) return `is a date without a time: send a date-time, e.g. ${value}T00:00:00Z`;
  if (WITHOUT_OFFSET.test(value)) {
    const local = value.replace(' ', 'T');
    return `has no UTC offset: end it with Z (UTC) or the offset of its time zone, e.g. ${local}Z or ${local}-06:00`;
  }
  if (WITH_SPACE.test(value)) return `must separate the date and the time with T, e.g. ${DATE_TIME_EXAMPLE}`;
  return GENERIC;
}

function epochMessage(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const unit =
    value >= EPOCH_MILLISECONDS.min && value < EPOCH_MILLISECONDS.max
      ? { name: 'milliseconds', ms: value }
      : value >= EPOCH_SECONDS.min && value < EPOCH_SECONDS.max
        ? { name: 'seconds', ms: value * 1000 }
        : undefined;
  if (!unit) return undefined;
  const instant = new Date(unit.ms).toISOString();
  return `looks like epoch ${unit.name} (${instant}); send an RFC 3339 date-time, e.g. ${DATE_TIME_EXAMPLE}`;
}
