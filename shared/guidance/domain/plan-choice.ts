import { planFuel } from '#shared/fuel-plan/domain/index.ts';
import type { FuelPlan, FuelPlanInput } from '#shared/fuel-plan/domain/types.ts';
import { planFirstStoppingAt } from './committed-plan.ts';
import { GUIDANCE_POLICY } from './policy.ts';

/**
 * The plan guidance shows, which is not always the cheapest one of this instant:
 * - Fuel below what the reserve needs is not "cannot reach": the plan is made again without the
 *   reserve (the emergency it is kept for), and says so; only if that fails too is it infeasible.
 * - Commitment: the stop the driver was shown (`shownStationIds[0]`) stays the first stop while it
 *   still works (reachable with `commitmentReserveShare` of the reserve left, room in the tank for the minimum purchase)
 *   (or, for a truck within `gaugeNoisePercent` of falling below the
 *   reserve, with none of it: the terms it was shown on) unless a new plan saves at least the switch margin (`commitmentSwitchMinUsd`, or
 *   `commitmentSwitchMinFraction` of the fuel spend left, whichever is more) and the stop is more
 *   than `commitmentFarMiles` ahead. The later stops shown are kept on the same margin.
 * - Hysteresis between phases: a plan with stops gives way to "no stop needed" only when no stop is
 *   needed even for `noStopBandPercent` points more fuel on arrival: a level that sloshes around
 *   the arrival margin does not take the stop away and bring it back.
 * A gauge wobbling by a few points, GPS jitter or a price moving by a few cents therefore never
 * changes the stop a driver was told; only a stop that stops working, or real savings still far
 * enough out to act on, does.
 */
export function choosePlan(input: FuelPlanInput, shownStationIds: readonly string[]): FuelPlan {
  let reserveGallons = input.reserveGallons ?? 0;
  let best = planFuel(input);
  if (best.status === 'infeasible' && reserveGallons > 0) {
    const withoutReserve = planFuel({ ...input, reserveGallons: 0 });
    if (withoutReserve.status !== 'infeasible') {
      reserveGallons = 0;
      best = { ...withoutReserve, reason: `Below the fuel reserve: ${withoutReserve.reason}` };
    }
  }
  const first = input.stations.find((station) => station.id === shownStationIds[0]);
  if (best.status === 'infeasible' || !first) return best;
  const after = input.stations.filter(
    (station) => station.id !== first.id && station.milesAlongRoute >= first.milesAlongRoute,
  );
  const shownLater = new Set(shownStationIds.slice(1));
  const fromShown = (keptReserveGallons: number) => {
    const banded = { ...input, reserveGallons: keptReserveGallons };
    return {
      // What the driver was told: the shown stop, then the stops shown after it…
      told: planFirstStoppingAt(
        banded,
        first,
        after.filter((station) => shownLater.has(station.id)),
      ),
      // …or, when those no longer work or cost the margin more, the shown stop and the cheapest after it.
      fromShownStop: planFirstStoppingAt(banded, first, after),
    };
  };
  let keptReserveGallons = reserveGallons * GUIDANCE_POLICY.commitmentReserveShare;
  let { told, fromShownStop } = fromShown(keptReserveGallons);
  if (
    told.status === 'infeasible' &&
    fromShownStop.status === 'infeasible' &&
    withinGaugeNoiseOfTheReserve(input, reserveGallons)
  ) {
    // A truck a gauge wobble away from the reserve was (or may have been) shown its stop from the
    // plan without the reserve: it keeps that stop on the same terms, so the wobble that brings the
    // reserve back does not take the stop away.
    keptReserveGallons = 0;
    ({ told, fromShownStop } = fromShown(keptReserveGallons));
  }
  if (told.status === 'infeasible' && fromShownStop.status === 'infeasible') return best;
  const switchToBest =
    first.milesAlongRoute > GUIDANCE_POLICY.commitmentFarMiles &&
    savesEnough(best, told.status === 'infeasible' ? fromShownStop : told) &&
    (best.stops.length > 0 || clearlyNoStop(input));
  if (switchToBest) return best;
  const kept =
    told.status !== 'infeasible' &&
    (fromShownStop.status === 'infeasible' || !savesEnough(fromShownStop, told))
      ? told
      : fromShownStop;
  if (reserveGallons === 0) return { ...kept, reason: best.reason };
  return keptReserveGallons === 0 ? { ...kept, reason: `Below the fuel reserve: ${kept.reason}` } : kept;
}

/**
 * Whether the plan with the full reserve fails when the gauge reads `gaugeNoisePercent` of the tank
 * lower: the truck is at the edge where noise alone decides whether the reserve can be kept.
 */
function withinGaugeNoiseOfTheReserve(input: FuelPlanInput, reserveGallons: number): boolean {
  if (reserveGallons === 0) return false;
  const noiseGallons = (GUIDANCE_POLICY.gaugeNoisePercent / 100) * input.tankGallons;
  return (
    planFuel({ ...input, currentFuelGallons: Math.max(0, input.currentFuelGallons - noiseGallons) })
      .status === 'infeasible'
  );
}

type Costed = Pick<FuelPlan, 'totalCost'> & {
  stops: readonly Pick<FuelPlan['stops'][number], 'gallons' | 'offProgramPenalty'>[];
};

/**
 * The published switch margin: whether `candidate` costs less than `current` by at least it. A
 * `preferred` fuel program's penalty counts in both costs, as it does in the plans themselves.
 */
export function savesEnough(candidate: Costed, current: Costed) {
  const margin = Math.max(
    GUIDANCE_POLICY.commitmentSwitchMinUsd,
    GUIDANCE_POLICY.commitmentSwitchMinFraction * current.totalCost,
  );
  return withPenalty(current) - withPenalty(candidate) >= margin - 1e-9;
}

const withPenalty = (plan: Costed) =>
  plan.stops.reduce((sum, stop) => sum + stop.gallons * (stop.offProgramPenalty ?? 0), plan.totalCost);

/** No stop is needed even to arrive with `noStopBandPercent` points of the tank more than asked. */
function clearlyNoStop(input: FuelPlanInput): boolean {
  const band = (GUIDANCE_POLICY.noStopBandPercent / 100) * input.tankGallons;
  const minArrivalGallons = Math.min(input.tankGallons, input.minArrivalGallons + band);
  return planFuel({ ...input, minArrivalGallons }).status === 'no_stop_needed';
}
