import type { RouteHazardousCargoType, RouteTruckOptions } from '@aws-sdk/client-geo-routes';
import type { RouteTruck } from './routing-engine.ts';

/** Exact conversion factors (the 1959 international inch, foot and pound). */
export const CM_PER_INCH = 2.54;
export const CM_PER_FOOT = 30.48;
export const KG_PER_POUND = 0.45359237;

/** The truck as Amazon Location takes it: centimetres and kilograms. */
export interface AmazonTruck {
  grossWeightKg: number;
  heightCm: number;
  widthCm: number;
  lengthCm: number;
  /** All axles, tractor and trailer together. */
  axleCount: number;
  hazardousCargos: RouteHazardousCargoType[];
}

/**
 * The truck routed when the request names none: shared/fleets/domain/truck-profile.ts's STANDARD_TRUCK
 * (13 ft 6 in, 102 in, 70 ft, 80,000 lb, 5 axles, no hazardous cargo) in metric. Declared here
 * rather than converted at load so the adapter's bundle needs nothing from the domain; a unit test
 * keeps the two equal.
 */
export const DEFAULT_TRUCK: Readonly<AmazonTruck> = {
  grossWeightKg: 36_287,
  heightCm: 411,
  widthCm: 259,
  lengthCm: 2_134,
  axleCount: 5,
  hazardousCargos: [],
};

/**
 * The API's hazardous cargo vocabulary (shared/fleets/domain/truck-profile.ts, snake case) → Amazon
 * Location's `HazardousCargos`. A unit test keeps its keys equal to the vocabulary.
 */
export const AMAZON_HAZARDOUS_CARGO: Readonly<Record<string, RouteHazardousCargoType>> = {
  explosive: 'Explosive',
  gas: 'Gas',
  flammable: 'Flammable',
  combustible: 'Combustible',
  organic: 'Organic',
  poison: 'Poison',
  poison_inhalation: 'PoisonousInhalation',
  radioactive: 'Radioactive',
  corrosive: 'Corrosive',
  harmful_to_water: 'HarmfulToWater',
  other: 'Other',
};

/**
 * The truck in Amazon's units, rounded to whole centimetres and kilograms (the service takes
 * integers). Cargo outside the vocabulary is a bug of ours — the API validated it — so it throws
 * rather than routing the truck as if it carried nothing.
 */
export function toAmazonTruck(truck: RouteTruck): AmazonTruck {
  return {
    grossWeightKg: Math.round(truck.grossWeightLbs * KG_PER_POUND),
    heightCm: Math.round(truck.heightInches * CM_PER_INCH),
    widthCm: Math.round(truck.widthInches * CM_PER_INCH),
    lengthCm: Math.round(truck.lengthFeet * CM_PER_FOOT),
    axleCount: truck.axleCount,
    hazardousCargos: truck.hazardousCargo.map((cargo) => {
      const amazon = Object.hasOwn(AMAZON_HAZARDOUS_CARGO, cargo) ? AMAZON_HAZARDOUS_CARGO[cargo] : undefined;
      if (!amazon) {
        throw new Error(
          `Hazardous cargo '${cargo}' has no Amazon Location equivalent; expected one of ` +
            `${Object.keys(AMAZON_HAZARDOUS_CARGO).join(', ')}.`,
        );
      }
      return amazon;
    }),
  };
}

/**
 * `TravelModeOptions.Truck` for a request: the request's truck, or the standard one. Always a
 * tractor with one trailer — the profile has no body type, and a fleet's trucks are
 * tractor-trailers — so a short straight truck is still routed as a (short) combination.
 */
export function amazonTruckOptions(truck: RouteTruck | undefined): RouteTruckOptions {
  const amazon = truck ? toAmazonTruck(truck) : DEFAULT_TRUCK;
  return {
    TruckType: 'Tractor',
    GrossWeight: amazon.grossWeightKg,
    Height: amazon.heightCm,
    Width: amazon.widthCm,
    Length: amazon.lengthCm,
    AxleCount: amazon.axleCount,
    Trailer: { TrailerCount: 1 },
    // Sent only when there is cargo: the service's default is none, and an empty list is noise.
    ...(amazon.hazardousCargos.length > 0 ? { HazardousCargos: [...amazon.hazardousCargos] } : {}),
  };
}
