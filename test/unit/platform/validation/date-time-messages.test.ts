import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fuelingItemSchema } from '#shared/fuelings/api/schemas.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { parseItem } from '#shared/platform/validation/batch-items.ts';
import { dateTimeMessage } from '#shared/platform/validation/date-time-messages.ts';
import { validatePart } from '#shared/platform/validation/validate.ts';
import { breadcrumbSchema } from '#shared/tracking/api/schemas.ts';

const GENERIC = 'must be an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z';

describe('dateTimeMessage', () => {
  it('says a local time is missing its offset: it is ISO 8601, but names no instant', () => {
    expect(dateTimeMessage('2026-11-27T10:00:00')).toBe(
      'has no UTC offset: end it with Z (UTC) or the offset of its time zone, e.g. 2026-11-27T10:00:00Z or 2026-11-27T10:00:00-06:00',
    );
    expect(dateTimeMessage('2026-11-27T10:00')).toContain('has no UTC offset');
    expect(dateTimeMessage('2026-11-27 10:00:00.5')).toContain('e.g. 2026-11-27T10:00:00.5Z');
  });

  it('reads epoch milliseconds and seconds, as numbers or digits, and says the instant they mean', () => {
    const ms = Date.parse('2026-11-27T10:00:00Z');
    const expected = (unit: string) =>
      `looks like epoch ${unit} (2026-11-27T10:00:00.000Z); send an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z`;

    expect(dateTimeMessage(ms)).toBe(expected('milliseconds'));
    expect(dateTimeMessage(String(ms))).toBe(expected('milliseconds'));
    expect(dateTimeMessage(ms / 1000)).toBe(expected('seconds'));
    expect(dateTimeMessage(` ${ms / 1000} `)).toBe(expected('seconds'));
  });

  it('gives the generic message for a number or digits no epoch would be', () => {
    expect(dateTimeMessage(42)).toBe(`${GENERIC} (a string, not a number)`);
    expect(dateTimeMessage(Number.POSITIVE_INFINITY)).toBe(`${GENERIC} (a string, not a number)`);
    expect(dateTimeMessage('2026')).toBe(GENERIC);
    expect(dateTimeMessage('9'.repeat(400))).toBe(GENERIC);
  });

  it('says a date alone needs a time, and that date and time are joined by T', () => {
    expect(dateTimeMessage('2026-11-27')).toBe(
      'is a date without a time: send a date-time, e.g. 2026-11-27T00:00:00Z',
    );
    expect(dateTimeMessage('2026-11-27 10:00:00Z')).toBe(
      'must separate the date and the time with T, e.g. 2026-11-23T14:05:00Z',
    );
  });

  it('never echoes anything but a date-time it recognised', () => {
    expect(dateTimeMessage('yesterday')).toBe(GENERIC);
    expect(dateTimeMessage(`2026-11-27T10:00:00.${'1'.repeat(50)}`)).toBe(GENERIC);
    expect(dateTimeMessage({ at: 'noon' })).toBe(GENERIC);
    expect(dateTimeMessage(true)).toBe(GENERIC);
  });
});

describe('date-time fields in a request', () => {
  const body = z.strictObject({ fueled_at: z.iso.datetime({ offset: true }) });
  const messageFor = (value: unknown) => {
    try {
      validatePart('body', body, { fueled_at: value });
    } catch (error) {
      if (error instanceof ApiError) return error.extensions.errors?.[0]?.message;
      throw error;
    }
    throw new Error('accepted');
  };

  it('get the message for what was sent: a string that fails the format, or a number that fails the type', () => {
    expect(messageFor('2026-11-27T10:00:00')).toContain('has no UTC offset');
    expect(messageFor(Date.parse('2026-11-27T10:00:00Z'))).toContain('looks like epoch milliseconds');
    expect(messageFor('noon')).toBe(GENERIC);
  });

  it('still say "is required" when the field is missing', () => {
    expect(messageFor(undefined)).toBe('is required');
  });
});

describe('date-time fields of batch rows', () => {
  const local = '2026-11-27T10:00:00';
  const rowMessage = (schema: Parameters<typeof parseItem>[0], row: Record<string, unknown>) => {
    const parsed = parseItem(schema, row);
    if (parsed.ok) throw new Error('accepted');
    return parsed.problem.errors;
  };

  it('say the same per breadcrumb (recorded_at) and per fueling (fueled_at)', () => {
    expect(
      rowMessage(breadcrumbSchema, { external_ref: 'T-1', latitude: 1, longitude: 1, recorded_at: local }),
    ).toEqual([{ field: 'recorded_at', message: dateTimeMessage(local) }]);
    expect(
      rowMessage(fuelingItemSchema, { external_ref: 'T-1', gallons: 50, fueled_at: 1_795_262_340 }),
    ).toEqual([{ field: 'fueled_at', message: dateTimeMessage(1_795_262_340) }]);
    expect(dateTimeMessage(1_795_262_340)).toContain('looks like epoch seconds');
  });
});
