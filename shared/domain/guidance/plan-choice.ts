import { planFuel } from '../fuel-plan/index.ts';
import type { FuelPlan, FuelPlanInput } from '../fuel-plan/types.ts';
import { GUIDANCE_POLICY } from './policy.ts';

/**
 * The plan guidance shows, which is not always the cheapest one of this instant:
 * - Fuel below what the reserve needs is not "cannot reach": the plan is made again without the
 *   reserve (the emergency it is kept for), and says so; only if that fails too is it infeasible.
 * - A driver who was told where to stop keeps that stop while it still works (within half the
 *   reserve) and costs at most `stickinessUsd` more than the best new plan: a plan that changes
 *   with every sloshing breadcrumb is one nobody follows.
 */
export function choosePlan(input: FuelPlanInput, currentStationIds: readonly string[]): FuelPlan {
  let reserveGallons = input.reserveGallons ?? 0;
  let best = planFuel(input);
  if (best.status === 'infeasible' && reserveGallons > 0) {
    const withoutReserve = planFuel({ ...input, reserveGallons: 0 });
    if (withoutReserve.status !== 'infeasible') {
      reserveGallons = 0;
      best = { ...withoutReserve, reason: `Below the fuel reserve: ${withoutReserve.reason}` };
    }
  }
  if (best.status === 'infeasible' || currentStationIds.length === 0) return best;
  const current = new Set(currentStationIds);
  const kept = planFuel({
    ...input,
    // Half the reserve is the band a kept stop may eat into: a gauge wobbling by a few gallons must
    // not add a splash-and-go five miles before the stop the driver is already heading for.
    reserveGallons: reserveGallons / 2,
    stations: input.stations.filter((station) => current.has(station.id)),
  });
  const keep =
    kept.status !== 'infeasible' && kept.totalCost <= best.totalCost + GUIDANCE_POLICY.stickinessUsd;
  return keep ? { ...kept, reason: reserveGallons === 0 ? best.reason : kept.reason } : best;
}
