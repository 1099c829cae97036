/** Timing helpers every benchmark shares (the seeded generator is test/support/seeded-random.ts). */

/** The `fraction` percentile (0.5 = median) of timings in ms, rounded to the microsecond. */
export function percentileMs(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
  return Math.round(value * 1000) / 1000;
}
