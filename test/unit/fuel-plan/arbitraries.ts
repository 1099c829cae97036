import fc from 'fast-check';
import type { CandidateStation, FuelPlanInput } from '#shared/fuel-plan/domain/types.ts';

/** Rounds to tenths, like the API's inputs: exact ties and limits come up often, as they should. */
const tenths = (value: number) => Math.round(value * 10) / 10;

const staleness = fc.oneof(
  { arbitrary: fc.constant(false), weight: 3 },
  { arbitrary: fc.constant(true), weight: 1 },
);

/**
 * States along the Pennsylvania–Ohio–Indiana–Illinois–Texas interstates with their shipped diesel
 * tax (0.2 to 0.741 $/gal: enough spread to reorder pump prices), and a station whose state the
 * table lacks.
 */
const STATES = [
  { state: 'PA', stateTax: 0.741 },
  { state: 'OH', stateTax: 0.47 },
  { state: 'IN', stateTax: 0.61 },
  { state: 'IL', stateTax: 0.74 },
  { state: 'TX', stateTax: 0.2 },
  { state: null, stateTax: null },
] as const;

/** A station as shares of the route, priced in cents; scaled by `toInput`. */
const stationShape = (maxDetourTenths: number) =>
  fc.record({
    permille: fc.integer({ min: 0, max: 1000 }),
    detourTenths: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: maxDetourTenths })),
    priceCents: fc.integer({ min: 300, max: 420 }),
    discountCents: fc.constantFrom(0, 5, 13),
    isStale: staleness,
    stateIndex: fc.integer({ min: 0, max: STATES.length - 1 }),
  });

type StationShape = {
  permille: number;
  detourTenths: number;
  priceCents: number;
  discountCents: number;
  isStale: boolean;
  stateIndex: number;
};

const treatment = fc.constantFrom('ifta' as const, 'pump' as const);

function toInput(shape: {
  tankGallons: number;
  mpg: number;
  /** Route length in percent of one full tank's range. */
  routePercent: number;
  fuelPercent: number;
  arrivalPercent: number;
  reservePercent: number;
  minPurchasePercent: number;
  stations: StationShape[];
  taxTreatment: 'ifta' | 'pump';
}): FuelPlanInput {
  const { tankGallons, mpg } = shape;
  const routeMiles = tenths(((shape.routePercent / 100) * tankGallons * mpg) | 0);
  const stations: CandidateStation[] = shape.stations.map((station, index) => ({
    id: `stn_${index}`,
    name: `Station ${index}`,
    milesAlongRoute: tenths((station.permille / 1000) * routeMiles),
    detourMiles: station.detourTenths / 10,
    pricePerGallon: station.priceCents / 100,
    discountPerGallon: station.discountCents / 100,
    isStale: station.isStale,
    ...(STATES[station.stateIndex] ?? STATES[0]),
  }));
  return {
    routeMiles,
    destinationName: 'Denver',
    stations,
    tankGallons,
    mpg,
    currentFuelGallons: tenths((shape.fuelPercent / 100) * tankGallons),
    minArrivalGallons: tenths((shape.arrivalPercent / 100) * tankGallons),
    reserveGallons: tenths((shape.reservePercent / 100) * tankGallons),
    minPurchaseGallons: tenths((shape.minPurchasePercent / 100) * tankGallons),
    taxTreatment: shape.taxTreatment,
  };
}

/**
 * Instances the exhaustive solver finishes in milliseconds: up to 6 stations and a tank of 10 to 22
 * lattice units (1.0–2.2 gal; the model has no scale, so a small tank is a big one in miniature),
 * routes up to 2.5 tanks long, detours up to a quarter of the range.
 */
export const smallFuelPlanInput: fc.Arbitrary<FuelPlanInput> = fc
  .record({
    tankGallons: fc.integer({ min: 10, max: 22 }).map((units) => units / 10),
    mpg: fc.integer({ min: 20, max: 60 }).map((value) => value / 10),
    routePercent: fc.integer({ min: 20, max: 250 }),
    fuelPercent: fc.integer({ min: 5, max: 100 }),
    arrivalPercent: fc.integer({ min: 0, max: 40 }),
    reservePercent: fc.integer({ min: 0, max: 20 }),
    minPurchasePercent: fc.integer({ min: 0, max: 60 }),
    stations: fc.array(stationShape(15), { minLength: 1, maxLength: 6 }),
    taxTreatment: treatment,
  })
  .map(toInput);

/**
 * Realistic trucks and long routes (50–300 gal tanks, up to 60 stations, up to 6 tanks long) for
 * the comparison with the dense DP.
 */
export const mediumFuelPlanInput: fc.Arbitrary<FuelPlanInput> = fc
  .record({
    tankGallons: fc.integer({ min: 50, max: 300 }),
    mpg: fc.integer({ min: 40, max: 80 }).map((value) => value / 10),
    routePercent: fc.integer({ min: 0, max: 600 }),
    fuelPercent: fc.integer({ min: 0, max: 100 }),
    arrivalPercent: fc.integer({ min: 0, max: 40 }),
    reservePercent: fc.integer({ min: 0, max: 20 }),
    minPurchasePercent: fc.integer({ min: 0, max: 30 }),
    stations: fc.array(stationShape(100), { maxLength: 60 }),
    taxTreatment: treatment,
  })
  .map(toInput);

/**
 * A fuel card program over an instance: each station accepted or not, and a penalty of 0 to 40
 * cents a gallon on those off it (a `preferred` program: fuelCandidates sets the penalty so). The
 * penalty reaches past the price spread, so it flips choices as often as it leaves them.
 */
export function withFuelProgram(inputs: fc.Arbitrary<FuelPlanInput>): fc.Arbitrary<FuelPlanInput> {
  return fc
    .record({
      input: inputs,
      accepted: fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
      penaltyCents: fc.integer({ min: 0, max: 40 }),
    })
    .map(({ input, accepted, penaltyCents }) => ({
      ...input,
      stations: input.stations.map((station, index) => {
        const inFuelProgram = accepted[index] ?? true;
        return { ...station, inFuelProgram, offProgramPenalty: inFuelProgram ? 0 : penaltyCents / 100 };
      }),
    }));
}
