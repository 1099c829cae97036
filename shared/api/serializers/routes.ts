import { BASELINE_DESCRIPTION, DEFAULT_MIN_PURCHASE_GALLONS } from '../../domain/fuel-plan/index.ts';
import type { BaselineOutcome, FuelPlan, SavingsVsBaseline } from '../../domain/fuel-plan/types.ts';
import { roundCoordinate, roundToHundredth, roundToTenth } from '../../domain/rounding.ts';
import { type ChainDiscounts, type Station, stationPrice } from '../../domain/stations/station.ts';
import type { RouteResult } from '../../geo/routing-engine.ts';
import { formatTimestamp } from '../../platform/time.ts';

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
  };
  destination: NamedPoint;
  route: RouteResult;
  minArrivalFuelPercent: number;
  reserveGallons: number;
  plan: FuelPlan;
  /** The stations the plan chose from, to describe and price its stops. */
  corridorStations: readonly Station[];
  discounts: ChainDiscounts;
  candidateStationCount: number;
  catalogVersion: string;
}

/** POST /v1/routes (and GET /v1/routes/{id}, which replays what was stored). */
export function truckRouteResource(planned: PlannedTruckRoute) {
  const { trip, destination, route, reserveGallons, plan, discounts } = planned;
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
          price_is_stale: stop.priceIsStale,
          cost_usd: stop.cost,
          reason: stop.reason,
        };
      }),
      total_cost_usd: roundToHundredth(plan.totalCost),
      total_gallons: roundToTenth(plan.totalGallons),
      arrival_fuel_gallons: plan.arrivalFuelGallons === null ? null : roundToTenth(plan.arrivalFuelGallons),
      arrival_fuel_percent:
        plan.arrivalFuelGallons === null
          ? null
          : roundToTenth((plan.arrivalFuelGallons / trip.tankGallons) * 100),
    },
    baseline: baselineResource(plan.baseline, trip.tankGallons),
    savings: savingsResource(plan.savingsVsBaseline),
    candidate_station_count: planned.candidateStationCount,
    catalog_version: planned.catalogVersion,
    routing_engine: { name: route.engine.name, data_version: route.engine.dataVersion },
  };
}

/** What the plan is compared with: the naive strategy on the same stations, and what it arrives with. */
export function baselineResource(baseline: BaselineOutcome, tankGallons: number) {
  return {
    strategy: baseline.strategy,
    description: BASELINE_DESCRIPTION,
    feasible: baseline.feasible,
    stop_count: baseline.stopCount,
    gallons: roundToTenth(baseline.gallons),
    cost_usd: roundToHundredth(baseline.cost),
    arrival_fuel_gallons: roundToTenth(baseline.arrivalFuelGallons),
    arrival_fuel_percent: roundToTenth((baseline.arrivalFuelGallons / tankGallons) * 100),
  };
}

/**
 * The saving, like for like (basis `same_arrival_fuel`), with the figures that make it: the
 * baseline's cost brought to the plan's arrival fuel, the plan's cost, and the difference.
 */
export function savingsResource(savings: SavingsVsBaseline | null) {
  if (!savings) return null;
  return {
    usd: savings.usd,
    percent: savings.percent,
    basis: savings.basis,
    baseline_cost_usd: savings.baselineCost,
    plan_cost_usd: savings.planCost,
    extra_arrival_fuel_gallons: savings.extraArrivalFuelGallons,
    fuel_value_usd_per_gallon: savings.fuelValuePerGallon,
    extra_arrival_fuel_value_usd: savings.extraArrivalFuelValue,
    description: savings.description,
  };
}
