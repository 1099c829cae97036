import { DenseStage } from './dense-stage.ts';
import type { DpStage } from './dp-stage.ts';
import { formatGallons } from './format.ts';
import { describeUncoveredStretch, type UncoveredStretch } from './infeasibility.ts';
import { fuelLattice } from './lattice.ts';
import { FUEL_TOLERANCE_GALLONS, GALLON_UNIT } from './policy.ts';
import { RunsStage } from './runs-stage.ts';
import type { FuelProblem } from './types.ts';

export type OptimizedPurchases =
  | {
      feasible: true;
      /** Gallons to buy at each of problem.stations (0: no stop), detour fuel included. */
      gallonsByStation: number[];
      /** The minimum of Σ objective price × gallons (stale penalty included). */
      objective: number;
    }
  | {
      feasible: false;
      reason: string;
      /** Where no plan covers the route; null when the truck starts below the reserve. */
      stretch: UncoveredStretch | null;
    };

export interface OptimizerOptions {
  /**
   * Hand over to the dense representation once cost(K) needs more runs than this. By default a
   * ninth of the levels between reserve and tank: measured, a run costs about nine times a level.
   * Tests set it to 0 (dense throughout) or to a few runs (a hand-over mid-route).
   */
  denseAfterRuns?: number;
}

/**
 * The cheapest purchases for a prepared fuel problem, exact on the purchase lattice (lattice.ts:
 * each purchase is its detour fuel plus whole GALLON_UNITs, so K, the units bought so far, is the
 * whole state and every rule is an integer bound on K).
 *
 * Dynamic programming over the stations in route order on cost(K), the least cost of having bought
 * K units. At each station K is cut to what reaches its exit, and
 * cost'(K') = min(cost(K'), min over K ≤ K' − kmin of cost(K) + price × (K' − K) + detour),
 * the second term a running prefix minimum (see DpStage). cost starts as runs of K on which it is
 * linear (RunsStage, O(runs) a station): on the benchmark's 3,500-mile, 500-station routes a
 * 300-gal tank has 2,700 levels but never needs more than about 40 runs (0.6 ms a plan). When
 * prices rise station after station the runs multiply, and the DP hands over to one entry per level
 * (DenseStage, O(levels) a station), so the worst case is the dense DP's O(n × levels), about 7 ms.
 *
 * The fill-or-reach-a-cheaper-station rule of Khuller, Malekian and Mestre (2011) is not relied on:
 * a minimum purchase and detours break its exchange argument, and this DP needs no such rule.
 */
export function optimizeFuelPurchases(
  problem: FuelProblem,
  options: OptimizerOptions = {},
): OptimizedPurchases {
  const { stations, reserveGallons, tankGallons } = problem;
  if (problem.currentFuelGallons < reserveGallons - FUEL_TOLERANCE_GALLONS) {
    return {
      feasible: false,
      reason:
        `Current fuel (${formatGallons(problem.currentFuelGallons)} gal) is below the en-route reserve ` +
        `(${formatGallons(reserveGallons)} gal).`,
      stretch: null,
    };
  }
  const lattice = fuelLattice(problem);
  const bounds = lattice.stations;
  const denseAfterRuns =
    options.denseAfterRuns ?? Math.max(16, Math.floor((tankGallons - reserveGallons) / GALLON_UNIT / 9));
  const runs = new RunsStage(stations.length);
  let stage: DpStage = runs;
  let dense: DenseStage | null = null;
  let lo = 0;

  // For the infeasibility reason: the last station where a stop was possible, and the most fuel
  // on the route after it.
  let lastStopIndex: number | null = null;
  let unusableSinceLastStop = 0;
  let maxFuelAfterLastStop = problem.currentFuelGallons;
  const uncovered = (checkpoint: number | 'destination'): OptimizedPurchases => {
    const stretch: UncoveredStretch = {
      checkpoint,
      lastStopIndex,
      maxFuelGallons: maxFuelAfterLastStop,
      unusableStationsBetween: unusableSinceLastStop,
    };
    return { feasible: false, reason: describeUncoveredStretch(problem, stretch), stretch };
  };

  for (let i = 0; i < stations.length; i++) {
    const station = stations[i];
    const stationBounds = bounds[i];
    if (!station || !stationBounds) break;
    lo = Math.max(lo, stationBounds.reachMin);
    if (!dense && runs.cost.length > denseAfterRuns) {
      dense = new DenseStage(runs.cost, lo, bounds, i);
      stage = dense;
    }
    const outcome = stage.apply(i, stationBounds, station.objectivePrice, lo);
    if (outcome === 'unreachable') return uncovered(i);
    if (outcome === 'no_stop') {
      unusableSinceLastStop++;
      continue;
    }
    lastStopIndex = i;
    unusableSinceLastStop = 0;
    maxFuelAfterLastStop = lattice.baseFuelAt(station.milesAlongRoute) + stage.hi * GALLON_UNIT;
  }

  const best = stage.leastCost(Math.max(lo, lattice.arrivalMin));
  if (!best) return uncovered('destination');

  const gallonsByStation = new Array<number>(stations.length).fill(0);
  let k = best.k;
  if (dense) k = dense.walkBack(k, bounds, gallonsByStation);
  k = runs.walkBack(k, bounds, gallonsByStation);
  if (k !== 0) throw new Error(`fuel plan walk-back ends at ${k} units, not 0`);
  return { feasible: true, gallonsByStation, objective: best.cost };
}
