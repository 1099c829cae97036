import { describe, expect, it } from 'vitest';
import { fixedClock, formatTimestamp } from '#shared/kernel/time.ts';

const SIX_DIGITS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('formatTimestamp', () => {
  it('writes milliseconds as six fractional digits in UTC', () => {
    // Act
    const text = formatTimestamp(Date.UTC(2026, 10, 21, 22, 26, 10, 123));

    // Assess
    expect(text).toBe('2026-11-21T22:26:10.123000Z');
  });

  it('keeps six digits on a whole second and on the first millisecond of the year', () => {
    // Act / Assess
    expect(formatTimestamp(Date.UTC(2026, 10, 21, 22, 26, 10, 0))).toBe('2026-11-21T22:26:10.000000Z');
    expect(formatTimestamp(Date.UTC(2027, 0, 1, 0, 0, 0, 1))).toBe('2027-01-01T00:00:00.001000Z');
  });

  it('converts a Date given with another offset to UTC', () => {
    // Prepare
    const chicagoEvening = new Date('2026-11-21T16:26:10.5-06:00');

    // Act
    const text = formatTimestamp(chicagoEvening);

    // Assess
    expect(text).toBe('2026-11-21T22:26:10.500000Z');
    expect(text).toMatch(SIX_DIGITS_UTC);
  });

  it('round-trips through Date.parse to the same instant', () => {
    // Prepare
    const ms = Date.UTC(2026, 1, 28, 23, 59, 59, 999);

    // Act
    const parsed = Date.parse(formatTimestamp(ms));

    // Assess
    expect(parsed).toBe(ms);
  });
});

describe('fixedClock', () => {
  it('stands still until advanced or set', () => {
    // Prepare
    const clock = fixedClock(1_000);

    // Act
    const first = clock.now();
    clock.advance(250);
    const second = clock.now();
    clock.set(5_000);

    // Assess
    expect([first, second, clock.now()]).toEqual([1_000, 1_250, 5_000]);
  });
});
