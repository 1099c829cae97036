import { describe, expect, it } from 'vitest';
import {
  AUTO_DISABLE_AFTER_CONSECUTIVE_FAILED_DELIVERIES,
  AUTO_DISABLE_AFTER_DAYS_WITHOUT_SUCCESS,
  MAX_DELIVERY_ATTEMPTS,
  nextRetryDelaySeconds,
  RETRY_DELAYS_SECONDS,
  shouldAutoDisable,
} from '#shared/webhooks/domain/retry-schedule.ts';

/** A random source that always lands mid-range: no jitter. */
const noJitter = () => 0.5;
const DAY_MS = 86_400_000;

describe('nextRetryDelaySeconds', () => {
  it('follows the published schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    // Act
    const delays = Array.from({ length: MAX_DELIVERY_ATTEMPTS - 1 }, (_, i) =>
      nextRetryDelaySeconds(i + 1, noJitter),
    );

    // Assess
    expect(delays).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    expect(RETRY_DELAYS_SECONDS[0]).toBe(0);
  });

  it('spans 8 attempts over about 27.6 hours', () => {
    // Act
    const totalSeconds = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);

    // Assess
    expect(MAX_DELIVERY_ATTEMPTS).toBe(8);
    expect(totalSeconds).toBe(99_305);
    expect(totalSeconds / 3600).toBeCloseTo(27.6, 1);
  });

  it('is exhausted (null: dead-letter queue, status failed) after the 8th attempt', () => {
    // Act / Assess
    expect(nextRetryDelaySeconds(7, noJitter)).toBe(36_000);
    expect(nextRetryDelaySeconds(8, noJitter)).toBeNull();
    expect(nextRetryDelaySeconds(9, noJitter)).toBeNull();
  });

  it('drives a delivery that never succeeds through 8 attempts on a fake clock, then stops', () => {
    // Prepare
    let clockSeconds = 0;
    const attemptTimes: number[] = [];

    // Act: the dispatcher loop, with every attempt failing.
    for (let attempt = 1; ; attempt++) {
      attemptTimes.push(clockSeconds);
      const delay = nextRetryDelaySeconds(attempt, noJitter);
      if (delay === null) break;
      clockSeconds += delay;
    }

    // Assess
    expect(attemptTimes).toEqual([0, 5, 305, 2105, 9305, 27_305, 63_305, 99_305]);
  });

  it('jitters each delay within ±10 %, using the injected random', () => {
    // Act / Assess
    for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS; attempt++) {
      const base = RETRY_DELAYS_SECONDS[attempt] as number;
      const lowest = nextRetryDelaySeconds(attempt, () => 0) as number;
      const highest = nextRetryDelaySeconds(attempt, () => 0.999_999) as number;
      expect(lowest).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
      expect(highest).toBeLessThanOrEqual(Math.ceil(base * 1.1));
      expect(lowest).toBeLessThanOrEqual(base);
      expect(highest).toBeGreaterThanOrEqual(base);
    }
    expect(nextRetryDelaySeconds(3, () => 0)).toBe(1620);
    expect(nextRetryDelaySeconds(3, () => 0.999_999)).toBe(1980);
    expect(nextRetryDelaySeconds(6, () => 0.25)).toBe(34_200);
  });

  it('stays within ±10 % for any random value, even one outside [0, 1)', () => {
    // Prepare
    const randoms = [-5, -0.1, 0, 0.1, 0.37, 0.5, 0.81, 0.999, 1, 3, Number.NaN];

    // Act / Assess
    for (const value of randoms) {
      const delay = nextRetryDelaySeconds(4, () => value);
      expect(delay).toBeGreaterThanOrEqual(6480);
      expect(delay).toBeLessThanOrEqual(7920);
    }
  });

  it('is deterministic for the same random values, and whole seconds', () => {
    // Prepare
    const sequence = () => {
      let seed = 42;
      return () => {
        seed = (seed * 16_807) % 2_147_483_647;
        return seed / 2_147_483_647;
      };
    };
    const schedule = (random: () => number) =>
      Array.from({ length: 7 }, (_, i) => nextRetryDelaySeconds(i + 1, random));

    // Act
    const first = schedule(sequence());
    const second = schedule(sequence());

    // Assess
    expect(first).toEqual(second);
    for (const delay of first) expect(Number.isInteger(delay)).toBe(true);
  });

  it('uses Math.random when no random is injected', () => {
    // Act
    const delay = nextRetryDelaySeconds(2);

    // Assess
    expect(delay).toBeGreaterThanOrEqual(270);
    expect(delay).toBeLessThanOrEqual(330);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses attempt number %s', (attempt) => {
    // Act / Assess
    expect(() => nextRetryDelaySeconds(attempt, noJitter)).toThrow(RangeError);
  });
});

describe('shouldAutoDisable', () => {
  const now = Date.UTC(2026, 6, 20);

  it('disables after 5 consecutive failed deliveries and 5 days without a success', () => {
    // Act / Assess
    expect(AUTO_DISABLE_AFTER_CONSECUTIVE_FAILED_DELIVERIES).toBe(5);
    expect(AUTO_DISABLE_AFTER_DAYS_WITHOUT_SUCCESS).toBe(5);
    expect(
      shouldAutoDisable(
        { consecutiveFailedDeliveries: 5, healthySinceMs: now - 5 * DAY_MS, trigger: 'delivery' },
        now,
      ),
    ).toBe(true);
    expect(
      shouldAutoDisable(
        { consecutiveFailedDeliveries: 40, healthySinceMs: now - 9 * DAY_MS, trigger: 'delivery' },
        now,
      ),
    ).toBe(true);
  });

  it('keeps a busy endpoint whose outage is younger than 5 days, however many deliveries failed', () => {
    // Act / Assess
    expect(
      shouldAutoDisable(
        { consecutiveFailedDeliveries: 500, healthySinceMs: now - 5 * DAY_MS + 1, trigger: 'delivery' },
        now,
      ),
    ).toBe(false);
  });

  it('keeps a quiet endpoint with fewer than 5 failed deliveries, however long ago it last succeeded', () => {
    // Act / Assess
    expect(
      shouldAutoDisable(
        { consecutiveFailedDeliveries: 4, healthySinceMs: now - 60 * DAY_MS, trigger: 'delivery' },
        now,
      ),
    ).toBe(false);
  });

  it('never disables from a test send', () => {
    // Act / Assess
    expect(
      shouldAutoDisable(
        { consecutiveFailedDeliveries: 500, healthySinceMs: now - 60 * DAY_MS, trigger: 'test' },
        now,
      ),
    ).toBe(false);
  });
});
