import { FUEL_TOLERANCE_GALLONS, GALLON_UNIT } from './policy.ts';
import type { FuelProblem } from './types.ts';

/**
 * One station's rules as integer bounds on K, the number of GALLON_UNITs bought before it.
 */
export interface StationBounds {
  /** Least K that passes the station's exit at or above the reserve. */
  reachMin: number;
  /** Least K that reaches the station itself (after the detour) at or above the reserve. */
  stopMin: number;
  /** Most K after buying here that keeps the tank from overflowing. */
  stopMax: number;
  /** Least units per purchase: at least one, and enough for the minimum purchase with the detour fuel. */
  unitsMin: number;
  /** Round-trip detour fuel, in gallons, bought on top of the units. */
  detourGallons: number;
}

export interface FuelLattice {
  stations: StationBounds[];
  /** Least K that arrives with the required fuel. */
  arrivalMin: number;
  /** Fuel on the route at a mile when K = 0: add K × GALLON_UNIT for the real level. */
  baseFuelAt(miles: number): number;
}

/**
 * The fuel problem on the purchase lattice. A purchase is its round-trip detour fuel plus k whole
 * units of GALLON_UNIT; the detour fuel is burned there and back, so on the route the tank holds
 * `currentFuel − miles / mpg + K × unit` whatever the stops, and every rule of the plan becomes an
 * integer bound on K. Bounds are rounded inwards with FUEL_TOLERANCE_GALLONS of slack, the same
 * slack the simulator allows, so both agree on plans that land exactly on a limit.
 */
export function fuelLattice(problem: FuelProblem): FuelLattice {
  const { mpg, reserveGallons, tankGallons } = problem;
  const slack = FUEL_TOLERANCE_GALLONS / GALLON_UNIT;
  const ceilUnits = (gallons: number) => Math.ceil(gallons / GALLON_UNIT - slack);
  const floorUnits = (gallons: number) => Math.floor(gallons / GALLON_UNIT + slack);
  const baseFuelAt = (miles: number) => problem.currentFuelGallons - miles / mpg;
  return {
    stations: problem.stations.map((station) => {
      const base = baseFuelAt(station.milesAlongRoute);
      const oneWay = station.detourMiles / mpg;
      return {
        reachMin: Math.max(0, ceilUnits(reserveGallons - base)),
        stopMin: Math.max(0, ceilUnits(reserveGallons + oneWay - base)),
        stopMax: floorUnits(tankGallons - oneWay - base),
        unitsMin: Math.max(1, ceilUnits(problem.minPurchaseGallons - 2 * oneWay)),
        detourGallons: 2 * oneWay,
      };
    }),
    arrivalMin: Math.max(0, ceilUnits(problem.arrivalRequiredGallons - baseFuelAt(problem.routeMiles))),
    baseFuelAt,
  };
}
