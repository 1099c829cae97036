import type { FuelPlanStatus } from '#shared/fuel-plan/domain/types.ts';

/**
 * A dispatch trip: a vehicle's planned run from an origin to a destination, with the dispatcher's
 * stops (pickup, delivery, rest, other) and the system's fuel stops. Pure types and rules; the
 * state machine (docs/trips.md#lifecycle) is in `lifecycle.ts`, the PATCH rules in `stop-edits.ts`.
 */

import type { ResolvedTruckProfile } from '#shared/fleets/domain/truck-profile.ts';
import type { PurchaseCounterfactual } from '#shared/fuel-plan/domain/types.ts';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import type { FuelLevelSource } from '#shared/tracking/domain/fuel-level.ts';

export type TripStatus = 'planned' | 'active' | 'completed' | 'cancelled';
export const TRIP_STATUSES = ['planned', 'active', 'completed', 'cancelled'] as const;

/** The dispatcher's stop types; `fuel` is the system's. */
export const DISPATCH_STOP_TYPES = ['pickup', 'delivery', 'rest', 'other'] as const;
export type DispatchStopType = (typeof DISPATCH_STOP_TYPES)[number];
export type TripStopType = DispatchStopType | 'fuel';

/** At most this many dispatcher stops a trip (fuel stops come on top). */
export const MAX_DISPATCH_STOPS = 25;

export interface TripPlace {
  latitude: number;
  longitude: number;
  name: string | null;
}

/** What the plan says to buy at a fuel stop, as the route's plan priced it. */
export interface TripFuelPurchase {
  station: { id: string; name: string; chain: string; latitude: number; longitude: number; address: string };
  milesAlongRoute: number;
  detourMiles: number;
  gallonsToBuy: number;
  price: number;
  discount: number;
  netPrice: number;
  // The price basis (absent on stops planned before it: read as pump prices, state unknown).
  state?: string | null;
  stateTax?: number | null;
  effectivePrice?: number;
  counterfactual?: PurchaseCounterfactual | null;
  priceIsStale: boolean;
  /** Whether the fleet's card is accepted there (null: no program rule; absent on stops planned before programs). */
  inFuelProgram?: boolean | null;
  reason: string;
}

export interface TripStop {
  id: string;
  type: TripStopType;
  name: string | null;
  latitude: number;
  longitude: number;
  plannedArrivalAtMs: number | null;
  arrivedAtMs: number | null;
  departedAtMs: number | null;
  /** Only on fuel stops. */
  fuel: TripFuelPurchase | null;
}

export interface TripRoute {
  distanceMiles: number;
  durationMinutes: number;
  polyline: string;
  /** The truck the route was computed for; absent on routes stored before trips kept it. */
  truck?: ResolvedTruckProfile;
}

export interface TripFuelPlan {
  status: FuelPlanStatus;
  reason: string;
  /**
   * Set when status is `no_accepted_station_in_range`, exactly as POST /v1/routes answers it
   * (`plan.fuel_program_shortfall`); absent on plans stored before fuel programs: read as null.
   */
  fuelProgramShortfall?: Record<string, unknown> | null;
  startFuelPercent: number;
  /**
   * Where startFuelPercent comes from (fuel-level.ts; `reported` too for the request's
   * start_fuel_percent) and the moment it describes. Absent on plans stored before they were kept:
   * read as reported at optimizedAtMs.
   */
  fuelLevelSource?: FuelLevelSource;
  fuelLevelAsOfMs?: number;
  minArrivalFuelPercent: number;
  totalGallons: number;
  totalCostUsd: number;
  projectedArrivalFuelPercent: number | null;
  /** The price basis the plan was made on; absent on plans made before it (read as `pump`). */
  taxTreatment?: FuelTaxTreatment;
  /**
   * The comparison with the counterfactual, exactly as POST /v1/routes answers it (`baseline`,
   * `savings`): kept as the route planner words it, so the two never disagree. A plan stored
   * before the counterfactual keeps its fill-to-full comparison, replayed as it was.
   */
  baseline: Record<string, unknown> | null;
  savings: Record<string, unknown> | null;
  optimizedAtMs: number;
}

/** A change committed with the trip whose follow-up (events, guidance) is carried out after it. */
export interface TripOutbox {
  events: {
    type: 'trip.started' | 'trip.completed' | 'trip.cancelled';
    dedupeKey: string;
    data: Record<string, unknown>;
  }[];
  guidance: 'start' | 'end' | null;
}

export interface Trip {
  id: string;
  fleetId: string;
  vehicleId: string;
  externalRef: string;
  reference: string | null;
  status: TripStatus;
  autoOptimize: boolean;
  origin: TripPlace;
  destination: TripPlace;
  plannedStartAtMs: number;
  plannedEndAtMs: number | null;
  startedAtMs: number | null;
  completedAtMs: number | null;
  cancelledAtMs: number | null;
  cancelReason: string | null;
  /** As requested; null: the vehicle's latest reported level when the fuel stops are planned. */
  startFuelPercent: number | null;
  /** As requested; null: the fleet's default when the fuel stops are planned. */
  minArrivalFuelPercent: number | null;
  /** In route order: dispatcher stops in the order given, fuel stops placed by where the route reaches them. */
  stops: TripStop[];
  route: TripRoute | null;
  fuelPlan: TripFuelPlan | null;
  /** The guidance session the start opened (its id is fixed at the start, so the start is idempotent). */
  guidanceId: string | null;
  outbox: TripOutbox | null;
  createdAtMs: number;
  updatedAtMs: number;
  /** Optimistic-concurrency counter; every write checks and bumps it. */
  version: number;
}

export const dispatchStops = (trip: Pick<Trip, 'stops'>) => trip.stops.filter((s) => s.type !== 'fuel');
export const fuelStops = (trip: Pick<Trip, 'stops'>) => trip.stops.filter((s) => s.type === 'fuel');

/**
 * The stops in route order: the dispatcher's keep their order (a pickup before its delivery); each
 * fuel stop goes before the first dispatcher stop the route reaches after it. `milesOf` places a
 * stop along the route (projection of its point).
 */
export function inRouteOrder(
  dispatch: readonly TripStop[],
  fuel: readonly TripStop[],
  milesOf: (stop: TripStop) => number,
): TripStop[] {
  const ordered: TripStop[] = [];
  const pending = [...fuel].sort((a, b) => (a.fuel?.milesAlongRoute ?? 0) - (b.fuel?.milesAlongRoute ?? 0));
  for (const stop of dispatch) {
    const at = milesOf(stop);
    while (pending[0] && (pending[0].fuel?.milesAlongRoute ?? 0) < at)
      ordered.push(pending.shift() as TripStop);
    ordered.push(stop);
  }
  return [...ordered, ...pending];
}
