import { effectiveTruckProfileResource } from '#shared/fleets/api/truck-profile-serializers.ts';
import type { ResolvedTruckProfile } from '#shared/fleets/domain/truck-profile.ts';
import { COUNTERFACTUAL_DESCRIPTION, DEFAULT_MIN_PURCHASE_GALLONS } from '#shared/fuel-plan/domain/index.ts';
import type {
  FuelPlan,
  FuelProgramShortfall,
  PlanSavings,
  PurchaseCounterfactual,
} from '#shared/fuel-plan/domain/types.ts';
import { type FuelProgram, programDiscounts } from '#shared/fuel-programs/domain/program.ts';
import type { RouteResult } from '#shared/geo/routing-engine.ts';
import { roundCoordinate, roundToHundredth, roundToTenth } from '#shared/kernel/rounding.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { type Station, stationPrice } from '#shared/stations/domain/station.ts';
import type { FuelLevelSource } from '#shared/tracking/domain/fuel-level.ts';

interface NamedPoint {
  latitude: number;
  longitude: number;
  name?: string | undefined;
}

/** A planned truck route, as POST /v1/routes computed it. */
export interface PlannedTruckRoute {
  id: string;
  createdAtMs: number;
  trip: {
    vehicleId: string | null;
    origin: NamedPoint;
    /** The truck's direction of travel at the origin, when routed from a moving truck's position. */
    headingDegrees?: number | null;
    tankGallons: number;
    mpg: number;
    fuelPercent: number;
    /** Where fuelPercent comes from (the manual form's own figure: reported) and the moment it describes. */
    fuelLevelSource: FuelLevelSource;
    fuelLevelAsOfMs: number;
  };
  destination: NamedPoint;
  route: RouteResult;
  minArrivalFuelPercent: number;
  reserveGallons: number;
  plan: FuelPlan;
  /** The stations the plan chose from, to describe and price its stops. */
  corridorStations: readonly Station[];
  /** The fleet's fuel card program the plan was made under. */
  program: FuelProgram;
  candidateStationCount: number;
  catalogVersion: string;
  /** The truck the route was computed for, and where each member came from. */
  truck: ResolvedTruckProfile;
}

/** POST /v1/routes (and GET /v1/routes/{id}, which replays what was stored). */
export function truckRouteResource(planned: PlannedTruckRoute) {
  const { trip, destination, route, reserveGallons, plan } = planned;
  const discounts = programDiscounts(planned.program);
  const stationsById = new Map(planned.corridorStations.map((station) => [station.id, station]));
  return {
    id: planned.id,
    created_at: formatTimestamp(planned.createdAtMs),
    vehicle_id: trip.vehicleId,
    origin: {
      latitude: roundCoordinate(trip.origin.latitude),
      longitude: roundCoordinate(trip.origin.longitude),
      name: trip.origin.name ?? null,
    },
    destination: {
      latitude: roundCoordinate(destination.latitude),
      longitude: roundCoordinate(destination.longitude),
      name: destination.name ?? null,
    },
    distance_miles: roundToTenth(route.distanceMiles),
    duration_minutes: Math.round(route.durationMinutes),
    polyline: route.polyline,
    legs: route.legs.map((leg) => ({
      road: leg.road,
      from: leg.from,
      to: leg.to,
      miles: roundToTenth(leg.miles),
    })),
    fuel: {
      tank_size_gallons: trip.tankGallons,
      estimated_mpg: trip.mpg,
      start_fuel_percent: roundToTenth(trip.fuelPercent),
      fuel_level_source: trip.fuelLevelSource,
      fuel_level_as_of: formatTimestamp(trip.fuelLevelAsOfMs),
      min_arrival_fuel_percent: planned.minArrivalFuelPercent,
      reserve_gallons: roundToTenth(reserveGallons),
      min_purchase_gallons: DEFAULT_MIN_PURCHASE_GALLONS,
    },
    plan: {
      status: plan.status,
      reason: plan.reason,
      stops: plan.stops.map((stop) => {
        const station = stationsById.get(stop.stationId);
        const priced = station ? stationPrice(station, discounts) : undefined;
        return {
          station: {
            id: stop.stationId,
            name: stop.name,
            chain: station?.chain ?? '',
            latitude: roundCoordinate(station?.latitude ?? 0),
            longitude: roundCoordinate(station?.longitude ?? 0),
            address: station?.address ?? '',
          },
          miles_along_route: roundToTenth(stop.milesAlongRoute),
          detour_miles: roundToTenth(2 * stop.detourMiles),
          gallons_to_buy: stop.gallons,
          // Pump-sign precision ($3.459), as everywhere else in the API; the plan's own figures are cents.
          price_usd_per_gallon: priced?.price ?? stop.price,
          discount_usd_per_gallon: priced?.discount ?? stop.discount,
          net_price_usd_per_gallon: priced?.net ?? stop.netPrice,
          state: stop.state,
          state_tax_usd_per_gallon: stop.stateTax,
          effective_price_usd_per_gallon: stop.effectivePrice,
          counterfactual: purchaseCounterfactualResource(stop.counterfactual),
          price_is_stale: stop.priceIsStale,
          cost_usd: stop.cost,
          effective_cost_usd: stop.effectiveCost,
          in_fuel_program: stop.inFuelProgram,
          reason: stop.reason,
        };
      }),
      fuel_program_shortfall: fuelProgramShortfallResource(plan.fuelProgramShortfall, (id) =>
        stationsById.get(id),
      ),
      fuel_tax_treatment: plan.taxTreatment,
      total_cost_usd: roundToHundredth(plan.totalCost),
      total_gallons: roundToTenth(plan.totalGallons),
      arrival_fuel_gallons: plan.arrivalFuelGallons === null ? null : roundToTenth(plan.arrivalFuelGallons),
      arrival_fuel_percent:
        plan.arrivalFuelGallons === null
          ? null
          : roundToTenth((plan.arrivalFuelGallons / trip.tankGallons) * 100),
    },
    baseline: baselineResource(plan, trip.tankGallons),
    savings: savingsResource(plan.savings, plan.meanStationPrice),
    candidate_station_count: planned.candidateStationCount,
    catalog_version: planned.catalogVersion,
    routing_engine: { name: route.engine.name, data_version: route.engine.dataVersion },
    ...effectiveTruckProfileResource(planned.truck.profile, planned.truck.sources),
  };
}

/**
 * Why a `required` fuel program leaves no plan (null otherwise): the nearest accepted stop beyond
 * the range above the reserve, placed from the catalog's station, and how far short the tank falls.
 */
export function fuelProgramShortfallResource(
  shortfall: FuelProgramShortfall | null,
  stationOf: (stationId: string) => Pick<Station, 'latitude' | 'longitude'> | undefined = () => undefined,
) {
  if (!shortfall) return null;
  const stop = shortfall.nearestAcceptedStop;
  const station =
    stop?.latitude !== undefined && stop.longitude !== undefined
      ? { latitude: stop.latitude, longitude: stop.longitude }
      : stop
        ? stationOf(stop.stationId)
        : undefined;
  return {
    code: shortfall.code,
    nearest_accepted_stop: stop && {
      station_id: stop.stationId,
      name: stop.name,
      chain: stop.chain,
      state: stop.state,
      latitude: station ? roundCoordinate(station.latitude) : null,
      longitude: station ? roundCoordinate(station.longitude) : null,
      miles_along_route: roundToTenth(stop.milesAlongRoute),
      detour_miles: roundToTenth(2 * stop.detourMiles),
    },
    shortfall_miles: shortfall.shortfallMiles,
    shortfall_gallons: shortfall.shortfallGallons,
  };
}

/** A purchase's counterfactual, at pump-sign precision like every price of the API. */
export function purchaseCounterfactualResource(counterfactual: PurchaseCounterfactual) {
  return {
    pump_price_usd_per_gallon: counterfactual.pumpPrice,
    net_price_usd_per_gallon: counterfactual.netPrice,
    station_count: counterfactual.stationCount,
  };
}

/**
 * What the plan is compared with: the counterfactual, the plan's own gallons each bought at the
 * mean price of the stations in reach for that purchase. An object on every plan: an infeasible
 * plan's is `feasible: false` with zero figures. The counterfactual buys the plan's gallons at the
 * plan's stops, so the members kept from the retired fill-to-full baseline are the plan's own
 * (stop count, arrival fuel, feasibility).
 */
export function baselineResource(
  plan: Pick<FuelPlan, 'counterfactual' | 'taxTreatment' | 'arrivalFuelGallons'> & {
    stops: readonly unknown[];
  },
  tankGallons: number,
) {
  const { counterfactual } = plan;
  const arrival = counterfactual ? (plan.arrivalFuelGallons ?? 0) : 0;
  return {
    strategy: 'mean_price_in_reach' as const,
    description: COUNTERFACTUAL_DESCRIPTION,
    fuel_tax_treatment: plan.taxTreatment,
    feasible: counterfactual !== null,
    stop_count: counterfactual ? plan.stops.length : 0,
    gallons: roundToTenth(counterfactual?.gallons ?? 0),
    cost_usd: roundToHundredth(counterfactual?.cost ?? 0),
    pump_cost_usd: roundToHundredth(counterfactual?.pumpCost ?? 0),
    arrival_fuel_gallons: roundToTenth(arrival),
    arrival_fuel_percent: roundToTenth((arrival / tankGallons) * 100),
  };
}

/**
 * The saving against the counterfactual, with the figures that make it: the counterfactual's cost,
 * the plan's effective cost, the routing part (usd) and the card's part beside it. Both arrive with
 * the same fuel by construction, so the members kept from the retired like-for-like comparison say
 * so: basis `same_arrival_fuel`, no extra arrival fuel, the counterfactual cost as the baseline's.
 */
export function savingsResource(savings: PlanSavings | null, meanStationPrice: number) {
  if (!savings) return null;
  return {
    usd: savings.usd,
    percent: savings.percent,
    basis: 'same_arrival_fuel' as const,
    fuel_tax_treatment: savings.taxTreatment,
    counterfactual_cost_usd: savings.counterfactualCost,
    plan_cost_usd: savings.planCost,
    routing_savings_usd: savings.routingUsd,
    card_savings_usd: savings.cardUsd,
    baseline_cost_usd: savings.counterfactualCost,
    extra_arrival_fuel_gallons: 0,
    fuel_value_usd_per_gallon: meanStationPrice,
    extra_arrival_fuel_value_usd: 0,
    description: savings.description,
  };
}
