import { describe, expect, it } from 'vitest';
import {
  admissionCeiling,
  monthlyLimitHint,
  remaining,
  usageResetAt,
} from '#shared/plans/domain/usage-limits.ts';

describe('usage limits arithmetic', () => {
  it.each([
    ['mid-month', '2026-11-21T12:00:10Z', '2026-12-01T00:00:00.000Z'],
    ['the last millisecond of a month', '2026-11-30T23:59:59.999Z', '2026-12-01T00:00:00.000Z'],
    ['the first instant of a month', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['December, into the next year', '2026-12-31T18:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['February of a leap year', '2028-02-29T10:00:00Z', '2028-03-01T00:00:00.000Z'],
  ])('resets at the first instant of the next UTC month (%s)', (_when, now, reset) => {
    expect(usageResetAt(Date.parse(now)).toISOString()).toBe(reset);
  });

  it('says in the hint what to do and when the count resets', () => {
    expect(monthlyLimitHint('wait for reset or upgrade', Date.parse('2026-11-21T12:00:00Z'))).toBe(
      'wait for reset or upgrade; the count resets at 2026-12-01T00:00:00.000000Z',
    );
  });

  it.each([
    [20, 0, 20],
    [20, 19, 1],
    [20, 20, 0],
    // A plan lowered mid-month leaves nothing, not a negative remainder.
    [20, 35, 0],
  ])('remaining of %i after %i used is %i', (limit, used, left) => {
    expect(remaining(limit, used)).toBe(left);
  });

  it.each([
    // A single call fits while fewer than `limit` are used.
    [20, 1, 19],
    // A 5-station answer fits while at most 95 of 100 are used: reaching the limit exactly fits.
    [100, 5, 95],
    [5, 5, 0],
    // More than the whole budget never fits.
    [5, 6, -1],
  ])('the admission ceiling of limit %i for %i more is %i', (limit, amount, ceiling) => {
    expect(admissionCeiling(limit, amount)).toBe(ceiling);
  });
});
