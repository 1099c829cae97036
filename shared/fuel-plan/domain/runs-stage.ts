import type { DpStage, StationOutcome } from './dp-stage.ts';
import type { StationBounds } from './lattice.ts';
import { LinearRuns, lowerEnvelope, PASS_BY, stopCost } from './linear-runs.ts';
import { GALLON_UNIT } from './policy.ts';

/**
 * cost(K) as runs on which it is linear (linear-runs.ts): a station costs O(runs). On real price
 * data that is a few dozen runs for thousands of levels.
 */
export class RunsStage implements DpStage {
  /** cost(K) before the next station; `after` and `stop` are scratch for the one being applied. */
  cost = new LinearRuns();
  private after = new LinearRuns();
  private readonly stop = new LinearRuns();
  // Where each station's stop won, to walk the plan back: K ranges and the K they bought from.
  private readonly regionFrom: number[] = [];
  private readonly regionTo: number[] = [];
  private readonly regionSource: number[] = [];
  private readonly regionStart: Int32Array;
  private readonly regionEnd: Int32Array;
  private lastApplied = -1;

  constructor(stationCount: number) {
    this.regionStart = new Int32Array(stationCount);
    this.regionEnd = new Int32Array(stationCount);
    // Nothing bought yet, at no cost.
    this.cost.push(0, 0, 0, 0, 0, PASS_BY);
  }

  get hi(): number {
    return this.cost.length === 0 ? -1 : (this.cost.to[this.cost.length - 1] as number);
  }

  apply(stationIndex: number, bounds: StationBounds, objectivePrice: number, lo: number): StationOutcome {
    this.lastApplied = stationIndex;
    this.regionStart[stationIndex] = this.regionFrom.length;
    this.regionEnd[stationIndex] = this.regionFrom.length;
    const { cost } = this;
    let firstRun = 0;
    while (firstRun < cost.length && (cost.to[firstRun] as number) < lo) firstRun++;
    if (firstRun === cost.length) return 'unreachable';
    const hi = this.hi;
    const from = Math.max(lo, bounds.stopMin);
    const last = bounds.stopMax;
    const canStop =
      from <= hi &&
      from + bounds.unitsMin <= last &&
      stopCost(
        cost,
        firstRun,
        from,
        Math.min(hi, last - bounds.unitsMin),
        last,
        bounds.unitsMin,
        objectivePrice * GALLON_UNIT,
        objectivePrice * bounds.detourGallons,
        this.stop,
      );
    // Runs below lo stay in `cost` when nothing changes: every later read starts at its own lo.
    if (!canStop) return 'no_stop';

    const { after } = this;
    lowerEnvelope(cost, firstRun, lo, this.stop, after);
    for (let run = 0; run < after.length; run++) {
      const source = after.source[run] as number;
      if (source === PASS_BY) continue;
      this.regionFrom.push(after.from[run] as number);
      this.regionTo.push(after.to[run] as number);
      this.regionSource.push(source);
    }
    this.regionEnd[stationIndex] = this.regionFrom.length;
    this.after = cost;
    this.cost = after;
    return 'stop_possible';
  }

  leastCost(minK: number): { k: number; cost: number } | null {
    const { cost } = this;
    let best: { k: number; cost: number } | null = null;
    for (let run = 0; run < cost.length; run++) {
      const to = cost.to[run] as number;
      if (to < minK) continue;
      // Linear on the run: its least cost is at one end.
      const k = (cost.slope[run] as number) >= 0 ? Math.max(cost.from[run] as number, minK) : to;
      const value = cost.costAt(run, k);
      if (!best || value < best.cost) best = { k, cost: value };
    }
    return best;
  }

  walkBack(k: number, bounds: readonly StationBounds[], gallonsByStation: number[]): number {
    for (let i = this.lastApplied; i >= 0 && k > 0; i--) {
      for (let region = this.regionStart[i] as number; region < (this.regionEnd[i] as number); region++) {
        if (k < (this.regionFrom[region] as number) || k > (this.regionTo[region] as number)) continue;
        const station = bounds[i] as StationBounds;
        const tagged = this.regionSource[region] as number;
        // A tracking run bought exactly the minimum.
        const source = tagged >= 0 ? tagged : k - station.unitsMin;
        gallonsByStation[i] = (k - source) * GALLON_UNIT + station.detourGallons;
        k = source;
        break;
      }
    }
    return k;
  }
}
