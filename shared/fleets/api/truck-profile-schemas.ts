import * as z from 'zod/mini';
import { nullableNumber } from '#shared/api/common-schemas.ts';
import { PHYSICAL_RANGES } from '#shared/api/ranges.ts';
import { HAZARDOUS_CARGO, TRUCK_PROFILE_RANGES } from '../domain/truck-profile.ts';

/**
 * The truck profile on the wire: what a vehicle or a fleet sets (each member nullable), what a
 * request writes (a partial object), and what a route was planned for (all six, with where each
 * came from). US units like every other field.
 */

const feetAndInches = (inches: number) => {
  const feet = Math.floor(inches / 12);
  const rest = inches % 12;
  return rest === 0 ? `${feet} ft` : `${feet} ft ${rest} in`;
};
const thousands = (value: number) => value.toLocaleString('en-US');

const { heightInches, widthInches, lengthFeet, grossWeightLbs, axleCount } = TRUCK_PROFILE_RANGES;

/**
 * Out-of-range messages that say the range, its unit, and a familiar value in it: a dispatcher
 * thinks of a trailer as 13'6", not 162 inches.
 */
export const TRUCK_PROFILE_MESSAGES = {
  height_inches: `must be between ${heightInches.min} and ${heightInches.max} inches (${feetAndInches(heightInches.min)} to ${feetAndInches(heightInches.max)}); 13 ft 6 in is 162`,
  width_inches: `must be between ${widthInches.min} and ${widthInches.max} inches (${feetAndInches(widthInches.min)} to ${feetAndInches(widthInches.max)}); 8 ft 6 in is 102`,
  length_feet: `must be between ${lengthFeet.min} and ${lengthFeet.max} feet, tractor and trailers together; a tractor with a 53 ft trailer is about 70`,
  gross_weight_lbs: `must be between ${thousands(grossWeightLbs.min)} and ${thousands(grossWeightLbs.max)} pounds; the federal Interstate limit is 80,000`,
  axle_count: `must be a whole number between ${axleCount.min} and ${axleCount.max} (axles of tractor and trailers together; a tractor-trailer usually has 5)`,
  hazardous_cargo: `must list each class once, from: ${HAZARDOUS_CARGO.join(', ')}`,
} as const;

type Dimension = 'height_inches' | 'width_inches' | 'length_feet' | 'gross_weight_lbs' | 'axle_count';

function dimension(field: Dimension, description: string) {
  const { min, max } = PHYSICAL_RANGES[field];
  const message = TRUCK_PROFILE_MESSAGES[field];
  const number = z.number().check(z.minimum(min, message), z.maximum(max, message), z.meta({ description }));
  return field === 'axle_count' ? number.check(z.int(message)) : number;
}

const DESCRIPTIONS = {
  height_inches: `Overall height in inches (${heightInches.min}–${heightInches.max}): the taller of tractor and trailer, load included.`,
  width_inches: `Overall width in inches (${widthInches.min}–${widthInches.max}), mirrors excluded.`,
  length_feet: `Overall length in feet (${lengthFeet.min}–${lengthFeet.max}), tractor and trailers together.`,
  gross_weight_lbs: `Gross weight in pounds (${thousands(grossWeightLbs.min)}–${thousands(grossWeightLbs.max)}): truck, trailers and load.`,
  axle_count: `Axles, tractor and trailers together (${axleCount.min}–${axleCount.max}).`,
  hazardous_cargo: `Hazardous cargo classes on board (docs/routing.md maps the US DOT hazard classes onto them); [] says none.`,
} as const;

const cargoClass = z.enum(HAZARDOUS_CARGO, { error: TRUCK_PROFILE_MESSAGES.hazardous_cargo });

const hazardousCargo = z.array(cargoClass).check(
  z.refine((classes) => new Set(classes).size === classes.length, TRUCK_PROFILE_MESSAGES.hazardous_cargo),
  z.meta({ description: DESCRIPTIONS.hazardous_cargo }),
);

const members = {
  height_inches: dimension('height_inches', DESCRIPTIONS.height_inches),
  width_inches: dimension('width_inches', DESCRIPTIONS.width_inches),
  length_feet: dimension('length_feet', DESCRIPTIONS.length_feet),
  gross_weight_lbs: dimension('gross_weight_lbs', DESCRIPTIONS.gross_weight_lbs),
  axle_count: dimension('axle_count', DESCRIPTIONS.axle_count),
  hazardous_cargo: hazardousCargo,
};

/**
 * Request form (POST/PATCH of vehicles and fleets): any members; null clears one, so the next
 * level's value applies again (the fleet's, then the standard truck's); absent ones stay.
 */
export const truckProfileRequest = z
  .strictObject({
    height_inches: z.optional(z.nullable(members.height_inches)),
    width_inches: z.optional(z.nullable(members.width_inches)),
    length_feet: z.optional(z.nullable(members.length_feet)),
    gross_weight_lbs: z.optional(z.nullable(members.gross_weight_lbs)),
    axle_count: z.optional(z.nullable(members.axle_count)),
    hazardous_cargo: z.optional(z.nullable(members.hazardous_cargo)),
  })
  .check(
    z.meta({
      id: 'TruckProfileRequest',
      description:
        'Members to set; a member left out stays as it is, null clears it (the next level applies: the fleet’s, then the standard truck’s).',
    }),
  );

export type TruckProfileRequest = z.infer<typeof truckProfileRequest>;

/** What a vehicle or a fleet has set: every member, null where it set nothing. */
export const truckProfileSettingsSchema = z
  .object({
    height_inches: nullableNumber(DESCRIPTIONS.height_inches),
    width_inches: nullableNumber(DESCRIPTIONS.width_inches),
    length_feet: nullableNumber(DESCRIPTIONS.length_feet),
    gross_weight_lbs: nullableNumber(DESCRIPTIONS.gross_weight_lbs),
    axle_count: nullableNumber(DESCRIPTIONS.axle_count),
    hazardous_cargo: z
      .nullable(z.array(z.enum(HAZARDOUS_CARGO)))
      .check(z.meta({ description: `${DESCRIPTIONS.hazardous_cargo} Null: not set.` })),
  })
  .check(
    z.meta({
      id: 'TruckProfileSettings',
      description:
        'The truck’s dimensions, weight and cargo as set here; null members are not set (a vehicle’s fall back to its fleet’s, a fleet’s to the standard truck: 162 in high, 102 in wide, 70 ft long, 80,000 lb, 5 axles, no hazardous cargo).',
    }),
  );

/** The profile a route was planned for: every member resolved. */
export const effectiveTruckProfileSchema = z
  .object({
    height_inches: z.number(),
    width_inches: z.number(),
    length_feet: z.number(),
    gross_weight_lbs: z.number(),
    axle_count: z.number(),
    hazardous_cargo: z.array(z.enum(HAZARDOUS_CARGO)),
  })
  .check(
    z.meta({
      id: 'TruckProfile',
      description:
        'The truck the route was planned for: the vehicle’s members, else its fleet’s, else the standard truck’s.',
    }),
  );

const source = z.enum(['vehicle', 'fleet', 'standard']);

export const truckProfileSourcesSchema = z
  .object({
    height_inches: source,
    width_inches: source,
    length_feet: source,
    gross_weight_lbs: source,
    axle_count: source,
    hazardous_cargo: source,
  })
  .check(
    z.meta({
      id: 'TruckProfileSources',
      description:
        'Where each member of truck_profile came from: the vehicle, its fleet, or the standard truck.',
    }),
  );
