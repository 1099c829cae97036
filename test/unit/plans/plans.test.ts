import { afterEach, describe, expect, it } from 'vitest';
import { usagePeriod } from '#shared/plans/domain/plans.ts';

describe('usagePeriod', () => {
  it('names the calendar month and spans first to first, UTC', () => {
    // Act
    const period = usagePeriod(Date.UTC(2026, 10, 21, 22, 26, 10, 123));

    // Assess
    expect(period.id).toBe('2026-11');
    expect(period.start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(period.end.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('puts the first millisecond of a month in that month and the last in the one before', () => {
    // Act
    const first = usagePeriod(Date.UTC(2026, 11, 1, 0, 0, 0, 0));
    const last = usagePeriod(Date.UTC(2026, 11, 1, 0, 0, 0, 0) - 1);

    // Assess
    expect(first.id).toBe('2026-12');
    expect(last.id).toBe('2026-11');
    expect(last.end.getTime()).toBe(first.start.getTime());
  });

  it('rolls December over into January of the next year', () => {
    // Act
    const december = usagePeriod(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    const january = usagePeriod(Date.UTC(2027, 0, 1, 0, 0, 0, 0));

    // Assess
    expect(december.id).toBe('2026-12');
    expect(december.end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(january.id).toBe('2027-01');
    expect(january.start.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('ends a leap-year February on 1 March', () => {
    // Act
    const period = usagePeriod(Date.UTC(2028, 1, 29, 12));

    // Assess
    expect(period.id).toBe('2028-02');
    expect(period.end.toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });

  describe('on a machine whose local zone is not UTC', () => {
    const originalTz = process.env.TZ;
    afterEach(() => {
      if (originalTz === undefined) delete process.env.TZ;
      else process.env.TZ = originalTz;
    });

    it('still uses UTC for a time that is the previous month locally', () => {
      // Prepare: 2026-12-01T03:00Z is the evening of 30 November in Chicago. Node applies a TZ
      // change at once, and each test file runs in its own process.
      process.env.TZ = 'America/Chicago';
      const ms = Date.parse('2026-11-30T21:00:00-06:00');

      // Act
      const period = usagePeriod(ms);

      // Assess
      expect(period.id).toBe('2026-12');
      expect(period.start.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    });
  });
});
