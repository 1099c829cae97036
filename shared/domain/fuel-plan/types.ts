/** A station found along the route, as the corridor query returns it. */
export interface CandidateStation {
  id: string;
  name: string;
  chain?: string | undefined;
  /** Distance from the origin to the point where the truck leaves the route for this station. */
  milesAlongRoute: number;
  /** One-way distance off the route; a stop drives it twice (there and back). */
  detourMiles: number;
  /** Posted diesel price, USD per gallon. */
  pricePerGallon: number;
  /** The fleet's discount at this station, USD per gallon (net price = price − discount). */
  discountPerGallon: number;
  /** The posted price is older than the catalog's freshness limit. */
  isStale: boolean;
}

/**
 * What the fuel plan needs. Fuel quantities are gallons (the routes use case converts the API's
 * percentages with the tank size), distances are miles.
 */
export interface FuelPlanInput {
  /** Total distance from the truck's position to the destination. */
  routeMiles: number;
  /** Named in the drivers' reasons ("… to reach Denver with 20% in the tank"). */
  destinationName: string;
  stations: readonly CandidateStation[];
  tankGallons: number;
  mpg: number;
  currentFuelGallons: number;
  /** From min_arrival_fuel_percent. */
  minArrivalGallons: number;
  /** Fuel never drops below this between stops; DEFAULT_RESERVE_FRACTION of the tank if omitted. */
  reserveGallons?: number | undefined;
  /** A stop buys at least this much; DEFAULT_MIN_PURCHASE_GALLONS if omitted. */
  minPurchaseGallons?: number | undefined;
}

/** A candidate station on the route, with the prices the plan works with. */
export interface RouteStation extends CandidateStation {
  /** Posted price − fleet discount: what the fleet pays. */
  netPrice: number;
  /** Net price plus the stale-price penalty: what the optimizer minimizes. */
  objectivePrice: number;
}

/** The input checked, defaults applied, stations on the route sorted in route order. */
export interface FuelProblem {
  routeMiles: number;
  destinationName: string;
  stations: readonly RouteStation[];
  tankGallons: number;
  mpg: number;
  currentFuelGallons: number;
  minArrivalGallons: number;
  reserveGallons: number;
  /** max(minArrivalGallons, reserveGallons): the reserve holds on the whole route, its end included. */
  arrivalRequiredGallons: number;
  minPurchaseGallons: number;
}

export type FuelPlanStatus = 'ok' | 'no_stop_needed' | 'infeasible';

export interface FuelStop {
  stationId: string;
  name: string;
  milesAlongRoute: number;
  detourMiles: number;
  /** Gallons to buy, detour fuel included, to 0.1 gal. */
  gallons: number;
  netPrice: number;
  price: number;
  discount: number;
  priceIsStale: boolean;
  /** Net price × gallons, to the cent. */
  cost: number;
  /** Why here and why this much, for the driver. */
  reason: string;
}

export interface BaselineOutcome {
  strategy: 'fill_to_full_below_quarter';
  /** USD at net prices, to the cent. */
  cost: number;
  gallons: number;
  stopCount: number;
  /** Fuel left at the destination (0 when the baseline runs dry). */
  arrivalFuelGallons: number;
  /** False when following the baseline runs the tank dry. */
  feasible: boolean;
}

export interface SavingsVsBaseline {
  /** Baseline cost adjusted to the plan's arrival fuel, minus the plan's cost. */
  usd: number;
  percent: number;
  /** The baseline's cost after valuing its different arrival fuel. */
  baselineAdjustedCost: number;
  /** USD per gallon at which the arrival-fuel difference is valued (mean net price on the route). */
  arrivalFuelValuePerGallon: number;
}

export interface FuelPlan {
  status: FuelPlanStatus;
  /** A one-line summary; for an infeasible plan, which stretch cannot be covered. */
  reason: string;
  stops: FuelStop[];
  totalCost: number;
  totalGallons: number;
  /** Fuel left at the destination; null when no plan exists. */
  arrivalFuelGallons: number | null;
  baseline: BaselineOutcome;
  /** Null when the plan or the baseline is infeasible: there is nothing fair to compare. */
  savingsVsBaseline: SavingsVsBaseline | null;
}
