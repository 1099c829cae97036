import type { StationBounds } from './lattice.ts';

/** What applying a station did: the truck cannot reach its exit, could not stop there, or could. */
export type StationOutcome = 'unreachable' | 'no_stop' | 'stop_possible';

/**
 * One representation of the optimizer's cost(K) (the least cost of having bought K units), stepped
 * through the stations in route order. Two exist, runs and dense, with the same contract, so the
 * optimizer can hand over from one to the other mid-route.
 */
export interface DpStage {
  /**
   * Forgets K below `lo` (they cannot reach station i's exit), then lets the truck pass the
   * station or stop there: cost'(K') = min(cost(K'), min over K ≤ K' − kmin of
   * cost(K) + objectivePrice × (K' − K) × unit + objectivePrice × detour).
   */
  apply(stationIndex: number, bounds: StationBounds, objectivePrice: number, lo: number): StationOutcome;
  /** The largest K with a finite cost (-1 when none). */
  readonly hi: number;
  /** The cheapest K at or above minK, and its cost; null when none is finite. */
  leastCost(minK: number): { k: number; cost: number } | null;
  /**
   * Walks the plan back from K through the stations this stage applied, writing the gallons of
   * each stop into gallonsByStation, and returns K before the first of them.
   */
  walkBack(k: number, bounds: readonly StationBounds[], gallonsByStation: number[]): number;
}
