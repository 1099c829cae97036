import type { FuelPlan, FuelStop, PurchaseCounterfactual } from '#shared/fuel-plan/domain/types.ts';
import { type FuelProgram, inFuelProgram, programDiscounts } from '#shared/fuel-programs/domain/program.ts';
import { effectivePrice } from '#shared/fuel-tax/domain/effective-price.ts';
import type { FuelTaxTable } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import { stableTimedId } from '#shared/kernel/ids.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import type { StationOnRoute } from '#shared/stations/domain/fuel-candidates.ts';
import { isPriceStale, type Station, stationPrice } from '#shared/stations/domain/station.ts';
import { givesGallons } from '#shared/tracking/domain/fuel-level.ts';
import type { FuelReading, GuidanceSession, GuidanceStop } from './session.ts';

/**
 * A purchase the plan (or the urgent fallback) names, before it becomes a session's stop. The
 * urgent fallback has no counterfactual: it is the only choice, not a recommendation among others.
 */
export type PlannedPurchase = Omit<FuelStop, 'cost' | 'effectiveCost' | 'counterfactual'> & {
  reason: string;
  counterfactual: PurchaseCounterfactual | null;
};

/** How the session prices a gallon: the state tax table in force and the vehicle's treatment. */
export interface StopPricing {
  taxes: FuelTaxTable;
  treatment: FuelTaxTreatment;
}

/**
 * A station's stop id within a session, the same every time the plan names it (and in a cycle
 * redone after a lost race), so an acknowledgement and an announced id stay valid.
 */
export const stopIdOf = (session: Pick<GuidanceSession, 'id' | 'createdAtMs'>, stationId: string) =>
  stableTimedId('guidanceStop', session.createdAtMs, `${session.id}:${stationId}`);

/**
 * A planned purchase as the session shows it; a stop named before keeps when it was recommended and
 * acknowledged. Its price basis is set on every stop: the station's state, the state tax in its
 * pump price now, the treatment, the effective price and the purchase's counterfactual (null when
 * no station but the stop itself was in reach).
 */
export function guidanceStopOf(
  session: Pick<GuidanceSession, 'id' | 'createdAtMs' | 'stops'>,
  station: Station,
  stop: PlannedPurchase,
  program: FuelProgram,
  fuel: FuelReading,
  nowMs: number,
  pricing: StopPricing,
): GuidanceStop {
  const price = stationPrice(station, programDiscounts(program));
  const stateTax = pricing.taxes.rateOf(station.state, nowMs);
  const counterfactual =
    stop.counterfactual && stop.counterfactual.stationCount > 1 ? stop.counterfactual : null;
  const id = stopIdOf(session, stop.stationId);
  const previous = session.stops.find((s) => s.id === id);
  return {
    id,
    stationId: station.id,
    name: station.name,
    chain: station.chain,
    latitude: station.latitude,
    longitude: station.longitude,
    address: station.address,
    milesAhead: roundToTenth(stop.milesAlongRoute),
    detourMiles: roundToTenth(2 * stop.detourMiles),
    // Gallons from an estimated level would be a guess presented as an instruction; a report a few
    // minutes back is not (fuel-level.ts givesGallons).
    gallonsToBuy: givesGallons(fuel) ? stop.gallons : null,
    price: price.price,
    discount: price.discount,
    netPrice: price.net,
    priceIsStale: stop.priceIsStale,
    reason: stop.reason,
    recommendedAtMs: previous?.recommendedAtMs ?? nowMs,
    acknowledgedAtMs: previous?.acknowledgedAtMs ?? null,
    // A trip's fuel stop stays that trip stop through every replan that keeps the station.
    ...(previous?.tripStopId ? { tripStopId: previous.tripStopId } : {}),
    state: station.state,
    stateTax,
    taxTreatment: pricing.treatment,
    effectivePrice: effectivePrice(price.net, stateTax, pricing.treatment),
    counterfactual,
    inFuelProgram: inFuelProgram(program, station.chain),
  };
}

/**
 * The urgent option when no plan reaches the destination: the station the driver was already
 * shown when the fuel on board still reaches it (commitment: the emergency does not move the stop
 * they are heading for), else the nearest station ahead that the fuel on board reaches (the
 * reserve may be used: this is the emergency it is kept for), filled up.
 */
export function nearestReachable(
  plan: FuelPlan,
  ahead: readonly StationOnRoute[],
  fuelGallons: number,
  tank: number,
  mpg: number,
  destinationName: string | null,
  nowMs: number,
  shownStationId: string | null = null,
): PlannedPurchase | null {
  const rangeMiles = fuelGallons * mpg;
  const inRange = (c: StationOnRoute) => c.milesAlongRoute + c.offRouteMiles <= rangeMiles;
  const reachable = ahead.find((c) => c.station.id === shownStationId && inRange(c)) ?? ahead.find(inRange);
  if (!reachable) return null;
  const arrivalGallons = fuelGallons - (reachable.milesAlongRoute + reachable.offRouteMiles) / mpg;
  return {
    stationId: reachable.station.id,
    name: reachable.station.name,
    milesAlongRoute: reachable.milesAlongRoute,
    detourMiles: reachable.offRouteMiles,
    gallons: roundToTenth(tank - arrivalGallons),
    netPrice: 0,
    price: 0,
    discount: 0,
    // Priced from the station when it becomes a stop (guidanceStopOf).
    state: reachable.station.state,
    stateTax: null,
    effectivePrice: 0,
    counterfactual: null,
    // Set from the station when it becomes a stop (guidanceStopOf).
    inFuelProgram: null,
    offProgramPenalty: 0,
    priceIsStale: isPriceStale(reachable.station, nowMs),
    reason:
      `Urgent: the fuel on board does not reach ${destinationName ?? 'the destination'} on any plan (${plan.reason}). ` +
      `${reachable.station.name}, ${roundToTenth(reachable.milesAlongRoute)} mi ahead, is ` +
      `${reachable.station.id === shownStationId ? 'the stop you were given, still' : 'the nearest station'} in range: fill up there.`,
  };
}
