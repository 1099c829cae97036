import type { CandidateStation, FuelPlanInput } from '#shared/fuel-plan/domain/types.ts';

/** A fresh, on-route, undiscounted station named "Station <id>"; override what a test is about. */
export function station(
  id: string,
  milesAlongRoute: number,
  pricePerGallon: number,
  overrides: Partial<CandidateStation> = {},
): CandidateStation {
  return {
    id,
    name: `Station ${id}`,
    milesAlongRoute,
    detourMiles: 0,
    pricePerGallon,
    discountPerGallon: 0,
    isStale: false,
    ...overrides,
  };
}

/**
 * Round numbers that make plans easy to check by hand: a 200-gal tank at 5 mpg (one gallon every
 * 5 miles), the default 10% reserve (20 gal) and 20-gal minimum purchase, 20% (40 gal) on arrival.
 */
export function trip(
  overrides: Partial<FuelPlanInput> & Pick<FuelPlanInput, 'routeMiles' | 'stations'>,
): FuelPlanInput {
  return {
    destinationName: 'Denver',
    tankGallons: 200,
    mpg: 5,
    currentFuelGallons: 100,
    minArrivalGallons: 40,
    ...overrides,
  };
}
