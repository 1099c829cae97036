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

// No closures below: these run once per station, and closures made per call (with the __name
// wrappers esbuild adds under keepNames) cost more than the arithmetic: 5 ms a plan against 0.8 ms.

/**
 * The cost after stopping at a station, from the cost before it (`before`, runs from `firstRun`):
 *
 *   stop(K') = min over from ≤ K ≤ min(lastSource, K' − unitsMin) of
 *              before(K) + pricePerUnit × (K' − K) + detourCost,   for from + unitsMin ≤ K' ≤ last.
 *
 * With g(K) = before(K) − pricePerUnit × K this is a running prefix minimum of g: on a run where g
 * rises the minimum stays where it was (a flat stop run: buy at this price from that K), on a run
 * where g falls it follows it (a tracking run: buy the minimum). Each run of `before` yields at most
 * two runs of `out`.
 *
 * @returns whether any stop here is possible (out is not empty).
 */
export function stopCost(
  before: LinearRuns,
  firstRun: number,
  from: number,
  lastSource: number,
  last: number,
  unitsMin: number,
  pricePerUnit: number,
  detourCost: number,
  out: LinearRuns,
): boolean {
  out.clear();
  // A source above last − unitsMin would land above the tank.
  const sourceEnd = Math.min(lastSource, last - unitsMin);
  // The running minimum: the best K to buy from so far (-1: none yet), and before(K) there.
  let bestK = -1;
  let bestCost = Number.POSITIVE_INFINITY;
  // Sources below cursor are already in `out`.
  let cursor = from;

  for (let run = firstRun; run < before.length && (before.from[run] as number) <= sourceEnd; run++) {
    const a = Math.max(before.from[run] as number, from);
    const b = Math.min(before.to[run] as number, sourceEnd);
    if (a > b) continue;
    const slope = before.slope[run] as number;
    if (slope >= pricePerUnit) {
      // g does not fall on this run: only its first K can be a new minimum.
      if (bestK < 0 || advantage(before, run, a, bestK, bestCost, pricePerUnit) < 0) {
        if (bestK >= 0 && cursor < a)
          pushFlat(out, cursor, a - 1, unitsMin, bestK, bestCost, detourCost, pricePerUnit);
        bestK = a;
        bestCost = before.costAt(run, a);
        cursor = a;
      }
      continue;
    }
    // g falls on this run: from the first K where it beats the running minimum, it is the minimum.
    let start = a;
    if (bestK >= 0) {
      const atA = advantage(before, run, a, bestK, bestCost, pricePerUnit);
      if (atA >= 0) {
        // A first guess from the line (clamped: the slopes may differ by a rounding error only),
        // then settled by the costs themselves.
        start = Math.min(a + Math.floor(atA / (pricePerUnit - slope)) + 1, b + 1);
        while (start > a && advantage(before, run, start - 1, bestK, bestCost, pricePerUnit) < 0) start--;
        while (start <= b && advantage(before, run, start, bestK, bestCost, pricePerUnit) >= 0) start++;
      }
    }
    if (start > b) continue;
    if (bestK >= 0 && cursor < start) {
      pushFlat(out, cursor, start - 1, unitsMin, bestK, bestCost, detourCost, pricePerUnit);
    }
    out.push(
      start + unitsMin,
      b + unitsMin,
      (before.anchorK[run] as number) + unitsMin,
      (before.anchorCost[run] as number) + pricePerUnit * unitsMin + detourCost,
      slope,
      TRACKING,
    );
    bestK = b;
    bestCost = before.costAt(run, b);
    cursor = b + 1;
  }
  if (bestK >= 0 && cursor <= last - unitsMin) {
    pushFlat(out, cursor, last - unitsMin, unitsMin, bestK, bestCost, detourCost, pricePerUnit);
  }
  return out.length > 0;
}

/** How much cheaper K is than buying up to it from bestK (negative: K is the better start). */
function advantage(
  before: LinearRuns,
  run: number,
  k: number,
  bestK: number,
  bestCost: number,
  pricePerUnit: number,
): number {
  return before.costAt(run, k) - bestCost - pricePerUnit * (k - bestK);
}

/** Stop targets for sources [fromSource, toSource] while the minimum sits at bestK. */
function pushFlat(
  out: LinearRuns,
  fromSource: number,
  toSource: number,
  unitsMin: number,
  bestK: number,
  bestCost: number,
  detourCost: number,
  pricePerUnit: number,
): void {
  out.push(fromSource + unitsMin, toSource + unitsMin, bestK, bestCost + detourCost, pricePerUnit, bestK);
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

  while (p < pass.length || s < stop.length) {
    const pTo = p < pass.length ? (pass.to[p] as number) : Number.POSITIVE_INFINITY;
    const sTo = s < stop.length ? (stop.to[s] as number) : Number.POSITIVE_INFINITY;
    let end: number;
    if (pAt < sAt) {
      end = Math.min(pTo, sAt - 1);
      out.pushPart(pass, p, pAt, end, PASS_BY);
    } else if (sAt < pAt) {
      end = Math.min(sTo, pAt - 1);
      out.pushPart(stop, s, sAt, end, stop.source[s] as number);
    } else {
      // Both cover [x, end]: their difference is linear, so the stop wins on a prefix or a suffix.
      const x = pAt;
      end = Math.min(pTo, sTo);
      const atX = stopMinusPass(stop, s, pass, p, x);
      const atEnd = stopMinusPass(stop, s, pass, p, end);
      if (atX < 0 && atEnd < 0) {
        out.pushPart(stop, s, x, end, stop.source[s] as number);
      } else if (atX >= 0 && atEnd >= 0) {
        out.pushPart(pass, p, x, end, PASS_BY);
      } else {
        const stopFirst = atX < 0;
        const rate = (stop.slope[s] as number) - (pass.slope[p] as number);
        // A first guess from the line, then settled by the costs themselves: split is the first
        // K where the side that won at x no longer wins.
        const guess = rate === 0 ? end : x + Math.ceil(Math.abs(atX / rate));
        let split = Math.min(Math.max(guess, x + 1), end);
        while (split > x + 1 && stopMinusPass(stop, s, pass, p, split - 1) < 0 !== stopFirst) split--;
        while (split <= end && stopMinusPass(stop, s, pass, p, split) < 0 === stopFirst) split++;
        if (stopFirst) {
          out.pushPart(stop, s, x, split - 1, stop.source[s] as number);
          out.pushPart(pass, p, split, end, PASS_BY);
        } else {
          out.pushPart(pass, p, x, split - 1, PASS_BY);
          out.pushPart(stop, s, split, end, stop.source[s] as number);
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

function stopMinusPass(stop: LinearRuns, s: number, pass: LinearRuns, p: number, k: number): number {
  return stop.costAt(s, k) - pass.costAt(p, k);
}
