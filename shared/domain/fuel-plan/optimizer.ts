import { describeUncoveredStretch } from './infeasibility.ts';
import { fuelLattice } from './lattice.ts';
import { LinearRuns, lowerEnvelope, PASS_BY, stopCost } from './linear-runs.ts';
import { FUEL_TOLERANCE_GALLONS, GALLON_UNIT } from './policy.ts';
import type { FuelProblem } from './types.ts';

export type OptimizedPurchases =
  | {
      feasible: true;
      /** Gallons to buy at each of problem.stations (0: no stop), detour fuel included. */
      gallonsByStation: number[];
      /** The minimum of Σ objective price × gallons (stale penalty included). */
      objective: number;
    }
  | { feasible: false; reason: string };

/**
 * The cheapest purchases for a prepared fuel problem, exact on the purchase lattice (lattice.ts:
 * each purchase is its detour fuel plus whole GALLON_UNITs, so K, the units bought so far, is the
 * whole state and every rule is an integer bound on K).
 *
 * Dynamic programming over the stations in route order on cost(K), the least cost of having bought
 * K units. At each station the window of K is cut to what reaches its exit, and
 * cost'(K') = min(cost(K'), min over K ≤ K' − kmin of cost(K) + price × (K' − K) + detour),
 * the second term a running prefix minimum (stopCost). cost is kept as runs of K on which it is
 * linear (LinearRuns): a few dozen runs instead of (tank − reserve) / unit levels, so a station
 * costs O(runs) rather than O(levels). The dense form of the same DP (O(n × levels)) lives in the
 * tests as a second referee next to the exhaustive solver.
 *
 * The fill-or-reach-a-cheaper-station rule of Khuller, Malekian and Mestre (2011) is not relied on:
 * a minimum purchase and detours break its exchange argument, and this DP needs no such rule.
 */
export function optimizeFuelPurchases(problem: FuelProblem): OptimizedPurchases {
  const { stations, reserveGallons } = problem;
  if (problem.currentFuelGallons < reserveGallons - FUEL_TOLERANCE_GALLONS) {
    return {
      feasible: false,
      reason:
        `Current fuel (${round1(problem.currentFuelGallons)} gal) is below the en-route reserve ` +
        `(${round1(reserveGallons)} gal).`,
    };
  }
  const lattice = fuelLattice(problem);
  const n = stations.length;

  let before = new LinearRuns();
  let after = new LinearRuns();
  const stop = new LinearRuns();
  before.push(0, 0, 0, 0, 0, PASS_BY);
  let lo = 0;

  // Where each station's stop won, to walk the plan back: K ranges and the K they bought from.
  const regionFrom: number[] = [];
  const regionTo: number[] = [];
  const regionSource: number[] = [];
  const regionStart = new Int32Array(n + 1);

  // For the infeasibility reason: the last station where a stop was possible, and the most fuel
  // on the route after it.
  let lastStopIndex: number | null = null;
  let unusableSinceLastStop = 0;
  let maxFuelAfterLastStop = problem.currentFuelGallons;

  for (let i = 0; i < n; i++) {
    regionStart[i] = regionFrom.length;
    const bounds = lattice.stations[i];
    const station = stations[i];
    if (!bounds || !station) break;
    lo = Math.max(lo, bounds.reachMin);
    let firstRun = 0;
    while (firstRun < before.length && (before.to[firstRun] as number) < lo) firstRun++;
    if (firstRun === before.length) {
      return infeasible(problem, i, lastStopIndex, maxFuelAfterLastStop, unusableSinceLastStop);
    }
    const hi = before.to[before.length - 1] as number;
    const from = Math.max(lo, bounds.stopMin);
    const last = bounds.stopMax;
    const canStop =
      from <= hi &&
      from + bounds.unitsMin <= last &&
      stopCost(
        before,
        firstRun,
        from,
        Math.min(hi, last - bounds.unitsMin),
        last,
        bounds.unitsMin,
        station.objectivePrice * GALLON_UNIT,
        station.objectivePrice * bounds.detourGallons,
        stop,
      );
    if (!canStop) {
      unusableSinceLastStop++;
      continue;
    }
    lowerEnvelope(before, firstRun, lo, stop, after);
    for (let run = 0; run < after.length; run++) {
      const source = after.source[run] as number;
      if (source === PASS_BY) continue;
      regionFrom.push(after.from[run] as number);
      regionTo.push(after.to[run] as number);
      regionSource.push(source);
    }
    [before, after] = [after, before];
    lastStopIndex = i;
    unusableSinceLastStop = 0;
    maxFuelAfterLastStop =
      lattice.baseFuelAt(station.milesAlongRoute) + (before.to[before.length - 1] as number) * GALLON_UNIT;
  }
  regionStart[n] = regionFrom.length;

  lo = Math.max(lo, lattice.arrivalMin);
  let bestK = -1;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let run = 0; run < before.length; run++) {
    const to = before.to[run] as number;
    if (to < lo) continue;
    // Linear on the run: its least cost is at one end.
    const k = (before.slope[run] as number) >= 0 ? Math.max(before.from[run] as number, lo) : to;
    const cost = before.costAt(run, k);
    if (cost < bestCost) {
      bestCost = cost;
      bestK = k;
    }
  }
  if (bestK < 0) {
    return infeasible(problem, 'destination', lastStopIndex, maxFuelAfterLastStop, unusableSinceLastStop);
  }

  const gallonsByStation = new Array<number>(n).fill(0);
  let k = bestK;
  for (let i = n - 1; i >= 0 && k > 0; i--) {
    for (let region = regionStart[i] as number; region < (regionStart[i + 1] as number); region++) {
      if (k < (regionFrom[region] as number) || k > (regionTo[region] as number)) continue;
      const bounds = lattice.stations[i];
      if (!bounds) break;
      const source = regionSource[region] as number;
      const from = source >= 0 ? source : k - bounds.unitsMin;
      gallonsByStation[i] = (k - from) * GALLON_UNIT + bounds.detourGallons;
      k = from;
      break;
    }
  }
  if (k !== 0) throw new Error(`fuel plan walk-back ends at ${k} units, not 0`);
  return { feasible: true, gallonsByStation, objective: bestCost };
}

function infeasible(
  problem: FuelProblem,
  checkpoint: number | 'destination',
  lastStopIndex: number | null,
  maxFuelGallons: number,
  unusableStationsBetween: number,
): OptimizedPurchases {
  return {
    feasible: false,
    reason: describeUncoveredStretch(problem, {
      checkpoint,
      lastStopIndex,
      maxFuelGallons,
      unusableStationsBetween,
    }),
  };
}

function round1(gallons: number): number {
  return Math.round(gallons * 10) / 10;
}
