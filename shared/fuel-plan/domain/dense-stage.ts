import type { DpStage, StationOutcome } from './dp-stage.ts';
import type { StationBounds } from './lattice.ts';
import type { LinearRuns } from './linear-runs.ts';
import { GALLON_UNIT } from './policy.ts';

/**
 * cost(K) as one array entry per level: a station costs O(levels) whatever the prices. The
 * optimizer switches to it when cost(K) stops being compact as runs (prices rising station after
 * station, a minimum purchase), which bounds the worst case at the dense DP's O(n × levels).
 */
export class DenseStage implements DpStage {
  // Two buffers: a stop reads cost[K] below the K' it writes, so it cannot update in place.
  private cost: Float64Array;
  private next: Float64Array;
  hi: number;
  // Back-pointers over each station's stop window [first, last]: the K a stop came from, or -1.
  private readonly pointers: Int32Array;
  private readonly pointerBase: Int32Array;
  private readonly pointerFirst: Int32Array;
  private readonly pointerLast: Int32Array;
  private pointerTop = 0;
  private readonly firstStation: number;
  private lastApplied: number;

  /** Takes over from the runs at station `firstStation`, reading cost(K) for K ≥ lo. */
  constructor(runs: LinearRuns, lo: number, bounds: readonly StationBounds[], firstStation: number) {
    let size = runs.length === 0 ? 1 : (runs.to[runs.length - 1] as number) + 1;
    let pointerCount = 0;
    for (let i = firstStation; i < bounds.length; i++) {
      const station = bounds[i] as StationBounds;
      size = Math.max(size, station.stopMax + 1);
      pointerCount += Math.max(0, station.stopMax - station.stopMin - station.unitsMin + 1);
    }
    this.cost = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
    this.next = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
    this.hi = -1;
    for (let run = 0; run < runs.length; run++) {
      for (let k = Math.max(runs.from[run] as number, lo); k <= (runs.to[run] as number); k++) {
        this.cost[k] = runs.costAt(run, k);
        this.hi = k;
      }
    }
    this.pointers = new Int32Array(pointerCount);
    this.pointerBase = new Int32Array(bounds.length);
    this.pointerFirst = new Int32Array(bounds.length);
    this.pointerLast = new Int32Array(bounds.length).fill(-1);
    this.firstStation = firstStation;
    this.lastApplied = firstStation - 1;
  }

  apply(stationIndex: number, bounds: StationBounds, objectivePrice: number, lo: number): StationOutcome {
    this.lastApplied = stationIndex;
    const { cost, next, hi } = this;
    if (hi < lo) return 'unreachable';
    const from = Math.max(lo, bounds.stopMin);
    const unitsMin = bounds.unitsMin;
    const first = from + unitsMin;
    const last = bounds.stopMax;
    // Entries below lo stay as they are: every later read starts at its own lo.
    if (from > hi || first > last) return 'no_stop';

    const pricePerUnit = objectivePrice * GALLON_UNIT;
    const detourCost = objectivePrice * bounds.detourGallons;
    const base = this.pointerTop - first;
    this.pointerBase[stationIndex] = this.pointerTop;
    this.pointerFirst[stationIndex] = first;
    this.pointerLast[stationIndex] = last;
    this.pointerTop += last - first + 1;

    // Below the stop window nothing changes. Both buffers hold Infinity above hi (hi only grows),
    // so a gap between hi and the window needs no writing.
    if (first > lo) next.set(cost.subarray(lo, Math.min(first, hi + 1)), lo);
    let runningMin = Number.POSITIVE_INFINITY;
    let runningArg = -1;
    // The loops are split by phase (sources still entering or not, a pass-by cost or not) so the
    // hot one carries no branch but the stop-or-pass decision.
    const sourcesEnd = Math.min(hi, last - unitsMin) + unitsMin;
    let target = first;
    for (const end = Math.min(sourcesEnd, hi); target <= end; target++) {
      const source = target - unitsMin;
      const shifted = (cost[source] as number) - pricePerUnit * source;
      if (shifted < runningMin) {
        runningMin = shifted;
        runningArg = source;
      }
      this.decide(target, runningMin + pricePerUnit * target + detourCost, runningArg, base);
    }
    for (; target <= sourcesEnd; target++) {
      const source = target - unitsMin;
      const shifted = (cost[source] as number) - pricePerUnit * source;
      if (shifted < runningMin) {
        runningMin = shifted;
        runningArg = source;
      }
      next[target] = runningMin + pricePerUnit * target + detourCost;
      this.pointers[base + target] = runningArg;
    }
    const flatStop = runningMin + detourCost;
    for (const end = Math.min(last, hi); target <= end; target++) {
      this.decide(target, flatStop + pricePerUnit * target, runningArg, base);
    }
    for (; target <= last; target++) {
      next[target] = flatStop + pricePerUnit * target;
      this.pointers[base + target] = runningArg;
    }
    if (last < hi) next.set(cost.subarray(last + 1, hi + 1), last + 1);

    this.cost = next;
    this.next = cost;
    if (runningMin === Number.POSITIVE_INFINITY) return 'no_stop';
    // Every target above hi got a finite stop cost once a finite source entered.
    if (last > hi) this.hi = last;
    return 'stop_possible';
  }

  /** Ties go to passing by: the same cost with one stop fewer. */
  private decide(target: number, stop: number, source: number, base: number): void {
    const passBy = this.cost[target] as number;
    if (stop < passBy) {
      this.next[target] = stop;
      this.pointers[base + target] = source;
    } else {
      this.next[target] = passBy;
      this.pointers[base + target] = -1;
    }
  }

  leastCost(minK: number): { k: number; cost: number } | null {
    let best: { k: number; cost: number } | null = null;
    for (let k = Math.max(0, minK); k <= this.hi; k++) {
      const value = this.cost[k] as number;
      if (value < (best?.cost ?? Number.POSITIVE_INFINITY)) best = { k, cost: value };
    }
    return best;
  }

  walkBack(k: number, bounds: readonly StationBounds[], gallonsByStation: number[]): number {
    for (let i = this.lastApplied; i >= this.firstStation && k > 0; i--) {
      const first = this.pointerFirst[i] as number;
      if (k < first || k > (this.pointerLast[i] as number)) continue;
      const source = this.pointers[(this.pointerBase[i] as number) + k - first] as number;
      if (source < 0) continue;
      gallonsByStation[i] = (k - source) * GALLON_UNIT + (bounds[i] as StationBounds).detourGallons;
      k = source;
    }
    return k;
  }
}
