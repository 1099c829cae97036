/** What every benchmark shares: a seeded generator (same work each run) and percentiles in ms. */

/** mulberry32: small, fast and seeded, so every run measures the same instances. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `fraction` percentile (0.5 = median) of timings in ms, rounded to the microsecond. */
export function percentileMs(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
  return Math.round(value * 1000) / 1000;
}
