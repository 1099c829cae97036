/**
 * Canonical timestamps: UTC, always six fractional digits (docs/units-and-numbers.md), e.g.
 * `2026-11-21T22:26:10.123000Z`. JavaScript clocks tick in milliseconds, so the last three digits
 * are zero; the format still promises microseconds so a future clock can fill them.
 */
export function formatTimestamp(at: Date | number): string {
  const date = typeof at === 'number' ? new Date(at) : at;
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** The port every use case takes instead of calling Date.now(), so tests can pin time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(startMs: number): Clock & { advance(ms: number): void; set(ms: number): void } {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}
