/**
 * mulberry32 with its state kept outside: a truck stores the integer and every simulated minute
 * continues from it, so a simulation resumed from the table draws the same numbers it would have
 * drawn running on.
 */
export function nextRandom(state: number): { value: number; state: number } {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, state: next };
}

/** A draw source over a mutable copy of the state, for one step's several draws. */
export function drawer(seed: number) {
  let state = seed >>> 0;
  return {
    /** Uniform in [0, 1). */
    next(): number {
      const drawn = nextRandom(state);
      state = drawn.state;
      return drawn.value;
    },
    /** Uniform in [-amplitude, amplitude). */
    around(amplitude: number): number {
      return (this.next() * 2 - 1) * amplitude;
    },
    get state() {
      return state;
    },
  };
}
