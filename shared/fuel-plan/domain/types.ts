import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';

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
  /** Two-letter state of the station; null (or absent) when unknown. */
  state?: string | null | undefined;
  /**
   * The state diesel tax included in the posted price, USD per gallon, at the time of pricing;
   * null (or absent) when the tax table lacks the state: then nothing is credited.
   */
  stateTax?: number | null | undefined;
  /**
   * Whether the fleet's fuel card is accepted at this station; null (or absent) when the fleet's
   * program has no rule. Plans under a `required` program keep only the stations where it is true.
   */
  inFuelProgram?: boolean | null | undefined;
  /**
   * What a purchase here costs the plan on top of its price, USD per gallon: a `preferred`
   * program's penalty off the program, else 0 (or absent). Never part of the shown prices.
   */
  offProgramPenalty?: number | undefined;
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
  /** How a gallon is valued (fuel-tax/treatment.ts); DEFAULT_FUEL_TAX_TREATMENT if omitted. */
  taxTreatment?: FuelTaxTreatment | undefined;
}

/** A candidate station on the route, with the prices the plan works with. */
export interface RouteStation extends CandidateStation {
  state: string | null;
  stateTax: number | null;
  /** Posted price − fleet discount: what the fleet pays at the pump. */
  netPrice: number;
  /** Net price − the credited state tax (none under `pump`), to $0.001: what a gallon really costs. */
  effectivePrice: number;
  inFuelProgram: boolean | null;
  offProgramPenalty: number;
  /**
   * Effective price plus the stale-price penalty and the off-program penalty: what the optimizer
   * (and the exhaustive reference solver) minimizes.
   */
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
  taxTreatment: FuelTaxTreatment;
}

/**
 * `no_accepted_station_in_range`: under a `required` fuel program, no plan over the accepted
 * stations reaches the destination while one over every station would (fuel-program.ts).
 */
export type FuelPlanStatus = 'ok' | 'no_stop_needed' | 'infeasible' | 'no_accepted_station_in_range';

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
  /** Net price × gallons, to the cent: what the pump charges the fleet's card. */
  cost: number;
  state: string | null;
  stateTax: number | null;
  /** Net price − credited tax, to $0.001. */
  effectivePrice: number;
  /** gallons × effectivePrice, to the cent: what the purchase really costs the fleet. */
  effectiveCost: number;
  /** What the same purchase costs without our advice (counterfactual.ts). */
  counterfactual: PurchaseCounterfactual;
  /** Whether the fleet's card is accepted here; null when its program has no rule. */
  inFuelProgram: boolean | null;
  /** The plan's off-program penalty here, USD per gallon (0 on the program or without a `preferred` one). */
  offProgramPenalty: number;
  /** Why here and why this much, for the driver. */
  reason: string;
}

/**
 * The counterfactual of one purchase: the mean price of the stations the truck could have bought
 * at instead (those in reach from the previous purchase point, the stop itself included), on the
 * plan's basis (credited tax off under `ifta`), to $0.001.
 */
export interface PurchaseCounterfactual {
  /** Mean of posted price − credited tax: no fleet card, no advice. */
  pumpPrice: number;
  /** Mean of posted price − the fleet's discount there − credited tax: the card, no advice. */
  netPrice: number;
  /** How many stations the means are over (at least 1: the stop itself). */
  stationCount: number;
}

/**
 * What the plan is compared with: the same gallons at the same moments, each bought at its
 * purchase's counterfactual price (savings.ts). Money to the cent, each stop's figure rounded
 * before they are summed so a reader can redo the sum.
 */
export interface PlanCounterfactual {
  strategy: 'mean_price_in_reach';
  gallons: number;
  /** Σ gallons × counterfactual.netPrice: the fleet's card, but no advice on where to buy. */
  cost: number;
  /** Σ gallons × counterfactual.pumpPrice: neither the card nor the advice. */
  pumpCost: number;
}

/** The plan against its counterfactual, on the plan's price basis. */
export interface PlanSavings {
  basis: 'counterfactual_in_reach';
  taxTreatment: FuelTaxTreatment;
  /** PlanCounterfactual.cost. */
  counterfactualCost: number;
  /** Σ the stops' effective costs. */
  planCost: number;
  /**
   * counterfactualCost − planCost: what choosing where to buy saved (the decision the plan
   * advises); negative if the plan costs more.
   */
  routingUsd: number;
  /** pumpCost − counterfactualCost: what the fleet's card is worth on this corridor, not counted in usd. */
  cardUsd: number;
  /** = routingUsd. */
  usd: number;
  /** usd as a percentage of counterfactualCost, to 0.1. */
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
  taxTreatment: FuelTaxTreatment;
  /**
   * The mean effective price of the route's stations, to the cent (0 with none): what a gallon in
   * the tank is worth on this route, published as the deprecated `savings.fuel_value_usd_per_gallon`.
   */
  meanStationPrice: number;
  /** Null when the plan is infeasible. */
  counterfactual: PlanCounterfactual | null;
  /**
   * Null when the plan is infeasible or buys nothing (no_stop_needed): no purchase, nothing to
   * compare.
   */
  savings: PlanSavings | null;
  /** Set when status is `no_accepted_station_in_range`: the nearest accepted stop and how far short the tank falls. */
  fuelProgramShortfall: FuelProgramShortfall | null;
}

/** The station on the fleet's fuel program a plan would have needed, as the shortfall names it. */
export interface AcceptedStopOutOfReach {
  stationId: string;
  name: string;
  chain: string | null;
  state: string | null;
  milesAlongRoute: number;
  /** One way off the route, like CandidateStation.detourMiles. */
  detourMiles: number;
  /** Where the station is, set by a caller that knows (the plan's stations carry no coordinates). */
  latitude?: number;
  longitude?: number;
}

/**
 * Why a `required` program leaves no plan: the first accepted station the fuel on board cannot
 * reach above the reserve from the last point where the plan could fill up, and by how much.
 * All null but the code when no accepted station lies beyond that point.
 */
export interface FuelProgramShortfall {
  code: 'no_accepted_station_in_range';
  nearestAcceptedStop: AcceptedStopOutOfReach | null;
  /** Miles beyond the range above the reserve, detour to the station included, to 0.1. */
  shortfallMiles: number | null;
  /** shortfallMiles ÷ mpg, to 0.1 gal: the fuel missing to reach it above the reserve. */
  shortfallGallons: number | null;
}
