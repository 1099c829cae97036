import * as z from 'zod/mini';
import { TRUCK_PROFILE_RANGES } from '#shared/fleets/domain/truck-profile.ts';

/**
 * The physically plausible range of every quantity a request carries (docs/validation.md publishes
 * this table; a unit test keeps the two equal). A value outside it is a unit mix-up (liters for
 * gallons, km/h for mph) or a typo, and would poison projections silently, so it is refused with
 * the range. The fleet is heavy and medium trucks, with room for the light diesel vans some run.
 */
export const PHYSICAL_RANGES = {
  latitude: { min: -90, max: 90, unit: 'degrees', why: 'WGS84' },
  longitude: { min: -180, max: 180, unit: 'degrees', why: 'WGS84' },
  tank_size_gallons: {
    min: 5,
    max: 400,
    unit: 'gallons',
    why: 'usable capacity of all tanks; a class 8 tractor carries 100–300, a van 20–30',
  },
  estimated_mpg: {
    min: 2,
    max: 30,
    unit: 'mpg',
    why: 'a loaded tractor on grades does 3–5, a light diesel van up to about 25',
  },
  fuel_level_percent: { min: 0, max: 100, unit: 'percent', why: 'of the usable tank' },
  speed_mph: {
    min: 0,
    max: 120,
    unit: 'mph',
    why: 'trucks are governed to 65–80 mph; more is a unit mix-up (km/h) or a GPS glitch',
  },
  heading_degrees: { min: 0, max: 360, unit: 'degrees', why: 'compass bearing, 0 = north' },
  height_inches: {
    ...TRUCK_PROFILE_RANGES.heightInches,
    unit: 'inches',
    why: '6 ft to 14 ft; a van trailer is usually 13 ft 6 in (162); 400 is a height in centimetres',
  },
  width_inches: {
    ...TRUCK_PROFILE_RANGES.widthInches,
    unit: 'inches',
    why: '6 ft to 10 ft; the federal limit is 8 ft 6 in (102), wider loads travel under permit',
  },
  length_feet: {
    ...TRUCK_PROFILE_RANGES.lengthFeet,
    unit: 'feet',
    why: 'the whole combination, tractor and trailers: a box truck is 25–35, a tractor with a 53 ft trailer about 70',
  },
  gross_weight_lbs: {
    ...TRUCK_PROFILE_RANGES.grossWeightLbs,
    unit: 'pounds',
    why: 'loaded truck and trailers; 80,000 is the federal Interstate limit, more travels under permit',
  },
  axle_count: {
    ...TRUCK_PROFILE_RANGES.axleCount,
    unit: 'axles',
    why: 'a whole number, tractor and trailers together: a 3-S2 tractor-trailer has 5',
  },
} as const satisfies Record<string, { min: number; max: number; unit: string; why: string }>;

export type PhysicalQuantity = keyof typeof PHYSICAL_RANGES;

/** A number in the quantity's plausible range; the message names the range and unit. */
export function physical(quantity: PhysicalQuantity) {
  const { min, max } = PHYSICAL_RANGES[quantity];
  return z.number().check(z.minimum(min), z.maximum(max));
}
