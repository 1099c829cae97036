/**
 * A cost function over whole numbers K, stored as the maximal runs of consecutive K on which it is
 * linear: on run r, cost(K) = anchorCost[r] + slope[r] × (K − anchorK[r]) for from[r] ≤ K ≤ to[r].
 * Where no run covers K the cost is infinite (that K cannot happen).
 *
 * The fuel plan's cost-by-units-bought is linear over long stretches (the marginal units all come
 * from one station), so a few dozen runs stand for thousands of 0.1-gal levels. Runs keep their
 * anchor when cut or split, so values never drift, and two pieces of one line merge back exactly.
 */
export class LinearRuns {
  from: number[] = [];
  to: number[] = [];
  anchorK: number[] = [];
  anchorCost: number[] = [];
  slope: number[] = [];
  /** For a stop's runs: the K the purchase starts from (≥ 0), or TRACKING (K − units minimum). */
  source: number[] = [];
  length = 0;

  clear(): void {
    this.length = 0;
  }

  costAt(run: number, k: number): number {
    return (
      (this.anchorCost[run] as number) + (this.slope[run] as number) * (k - (this.anchorK[run] as number))
    );
  }

  push(from: number, to: number, anchorK: number, anchorCost: number, slope: number, source: number): void {
    const last = this.length - 1;
    if (
      last >= 0 &&
      this.to[last] === from - 1 &&
      this.anchorK[last] === anchorK &&
      this.anchorCost[last] === anchorCost &&
      this.slope[last] === slope &&
      this.source[last] === source
    ) {
      this.to[last] = to;
      return;
    }
    const run = this.length++;
    this.from[run] = from;
    this.to[run] = to;
    this.anchorK[run] = anchorK;
    this.anchorCost[run] = anchorCost;
    this.slope[run] = slope;
    this.source[run] = source;
  }

  /** Appends run `run` of `other`, cut to [from, to]. */
  pushPart(other: LinearRuns, run: number, from: number, to: number, source: number): void {
    this.push(
      from,
      to,
      other.anchorK[run] as number,
      other.anchorCost[run] as number,
      other.slope[run] as number,
      source,
    );
  }
}

/** A stop run whose purchase starts from K' − unitsMin: it buys exactly the minimum. */
export const TRACKING = -1;

/** A run of the pass-by cost (no stop at this station). */
export const PASS_BY = -2;

/**
 * The cost after stopping at a station, from the cost before it (`before`, runs from `firstRun`):
 *
 *   stop(K') = min over from ≤ K ≤ min(hi, K' − unitsMin) of before(K) + pricePerUnit × (K' − K) + detourCost
 *
 * for unitsMin + from ≤ K' ≤ last. With g(K) = before(K) − pricePerUnit × K this is a running
 * prefix minimum of g: on a run where g rises the minimum stays where it was (a "flat" stop run,
 * buying at this price from that K), on a run where g falls it follows it (a "tracking" run,
 * buying the minimum). Each run of `before` yields at most two runs of `out`.
 *
 * @returns whether any stop here is possible (out is not empty).
 */
export function stopCost(
  before: LinearRuns,
  firstRun: number,
  range: { from: number; lastSource: number; last: number },
  unitsMin: number,
  pricePerUnit: number,
  detourCost: number,
  out: LinearRuns,
): boolean {
  out.clear();
  const { from, lastSource } = range;
  const lastTarget = range.last - unitsMin;
  // The running minimum: the best K to buy from so far, and before(K) there.
  let bestK = -1;
  let bestCost = Number.POSITIVE_INFINITY;
  let cursor = from;
  const flatUntil = (end: number) => {
    if (bestK >= 0 && cursor <= end) {
      out.push(cursor + unitsMin, end + unitsMin, bestK, bestCost + detourCost, pricePerUnit, bestK);
    }
    cursor = end + 1;
  };
  // How much cheaper K is than buying up to it from bestK (negative: K is the better start).
  const advantage = (run: number, k: number) => before.costAt(run, k) - bestCost - pricePerUnit * (k - bestK);

  for (let run = firstRun; run < before.length && (before.from[run] as number) <= lastSource; run++) {
    const a = Math.max(before.from[run] as number, from);
    const b = Math.min(before.to[run] as number, lastSource);
    if (a > b) continue;
    if (cursor < a) flatUntil(a - 1);
    const slope = before.slope[run] as number;
    if (slope >= pricePerUnit) {
      // g does not fall on this run: only its first K can be a new minimum.
      if (bestK < 0 || advantage(run, a) < 0) {
        bestK = a;
        bestCost = before.costAt(run, a);
      }
      flatUntil(b);
      continue;
    }
    // g falls on this run: from the first K where it beats the running minimum, it is the minimum.
    let start = a;
    if (bestK >= 0) {
      const atA = advantage(run, a);
      if (atA >= 0) {
        start = a + Math.floor(atA / (pricePerUnit - slope)) + 1;
        while (start > a && advantage(run, start - 1) < 0) start--;
        while (start <= b && advantage(run, start) >= 0) start++;
      }
    }
    flatUntil(Math.min(start, b + 1) - 1);
    if (start <= b) {
      const anchorK = before.anchorK[run] as number;
      const anchorCost = before.anchorCost[run] as number;
      out.push(
        start + unitsMin,
        b + unitsMin,
        anchorK + unitsMin,
        anchorCost + pricePerUnit * unitsMin + detourCost,
        slope,
        TRACKING,
      );
      bestK = b;
      bestCost = before.costAt(run, b);
      cursor = b + 1;
    }
  }
  flatUntil(lastTarget);
  return out.length > 0;
}

/**
 * The pointwise minimum of the pass-by cost (`pass`, runs from `firstRun`, cut below `lo`) and the
 * stop cost (`stop`), into `out`. Ties go to passing by: the same cost with one stop fewer. Runs
 * of `out` taken from `stop` keep their source; those from `pass` get PASS_BY.
 */
export function lowerEnvelope(
  pass: LinearRuns,
  firstRun: number,
  lo: number,
  stop: LinearRuns,
  out: LinearRuns,
): void {
  out.clear();
  let p = firstRun;
  let s = 0;
  let pAt = p < pass.length ? Math.max(pass.from[p] as number, lo) : Number.POSITIVE_INFINITY;
  let sAt = s < stop.length ? (stop.from[s] as number) : Number.POSITIVE_INFINITY;
  const takePass = (from: number, to: number) => out.pushPart(pass, p, from, to, PASS_BY);
  const takeStop = (from: number, to: number) => out.pushPart(stop, s, from, to, stop.source[s] as number);

  while (p < pass.length || s < stop.length) {
    const pTo = p < pass.length ? (pass.to[p] as number) : Number.POSITIVE_INFINITY;
    const sTo = s < stop.length ? (stop.to[s] as number) : Number.POSITIVE_INFINITY;
    let end: number;
    if (pAt < sAt) {
      end = Math.min(pTo, sAt - 1);
      takePass(pAt, end);
    } else if (sAt < pAt) {
      end = Math.min(sTo, pAt - 1);
      takeStop(sAt, end);
    } else {
      // Both cover [x, end]: the difference is linear, so the stop wins on a prefix or a suffix.
      const x = pAt;
      end = Math.min(pTo, sTo);
      const gap = (k: number) => stop.costAt(s, k) - pass.costAt(p, k);
      const atX = gap(x);
      const atEnd = gap(end);
      if (atX < 0 && atEnd < 0) {
        takeStop(x, end);
      } else if (atX >= 0 && atEnd >= 0) {
        takePass(x, end);
      } else {
        const stopFirst = atX < 0;
        const wins = (k: number) => gap(k) < 0 === stopFirst;
        const rate = (stop.slope[s] as number) - (pass.slope[p] as number);
        // A first guess from the line, then settled by the costs themselves.
        const guess = rate === 0 ? end : x + Math.ceil(Math.abs(atX / rate));
        let split = Math.min(Math.max(guess, x + 1), end);
        while (split > x + 1 && !wins(split - 1)) split--;
        while (split <= end && wins(split)) split++;
        if (stopFirst) {
          takeStop(x, split - 1);
          takePass(split, end);
        } else {
          takePass(x, split - 1);
          takeStop(split, end);
        }
      }
    }
    if (end >= pTo) {
      p++;
      pAt = p < pass.length ? (pass.from[p] as number) : Number.POSITIVE_INFINITY;
    } else if (pAt <= end) {
      pAt = end + 1;
    }
    if (end >= sTo) {
      s++;
      sAt = s < stop.length ? (stop.from[s] as number) : Number.POSITIVE_INFINITY;
    } else if (sAt <= end) {
      sAt = end + 1;
    }
  }
}
