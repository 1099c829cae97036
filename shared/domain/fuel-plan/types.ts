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

/**
 * The plan against the baseline, like for like (savings.ts): the baseline brought to the plan's
 * arrival fuel by valuing the difference at one price. Gallons to 0.1, money to the cent, each
 * figure computed from the rounded ones before it so the published sum adds up.
 */
export interface SavingsVsBaseline {
  /** What is compared: the two strategies' costs for the same fuel on arrival. */
  basis: 'same_arrival_fuel';
  /** The baseline's arrival fuel minus the plan's: positive when the baseline arrives with more. */
  extraArrivalFuelGallons: number;
  /** USD per gallon at which that difference is valued: the mean net price on the route. */
  fuelValuePerGallon: number;
  /** extraArrivalFuelGallons × fuelValuePerGallon (negative when the baseline arrives with less). */
  extraArrivalFuelValue: number;
  /** The baseline's cost minus extraArrivalFuelValue: its cost to arrive with the plan's fuel. */
  baselineCost: number;
  /** The plan's cost (the sum of its stops). */
  planCost: number;
  /** baselineCost − planCost; negative if the plan costs more. */
  usd: number;
  /** usd as a percentage of baselineCost, to 0.1. */
  percent: number;
  /** The comparison in one paragraph with these figures. */
  description: string;
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
