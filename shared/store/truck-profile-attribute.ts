import {
  HAZARDOUS_CARGO,
  type HazardousCargo,
  type TruckProfileSettings,
  UNSET_TRUCK_PROFILE,
} from '../domain/truck-profile.ts';

/** A vehicle's or a fleet's truck profile as its item's `truck_profile` map holds it. */
export interface TruckProfileAttribute {
  height_inches: number | null;
  width_inches: number | null;
  length_feet: number | null;
  gross_weight_lbs: number | null;
  axle_count: number | null;
  hazardous_cargo: string[] | null;
}

export function toTruckProfileAttribute(settings: Readonly<TruckProfileSettings>): TruckProfileAttribute {
  return {
    height_inches: settings.heightInches,
    width_inches: settings.widthInches,
    length_feet: settings.lengthFeet,
    gross_weight_lbs: settings.grossWeightLbs,
    axle_count: settings.axleCount,
    hazardous_cargo: settings.hazardousCargo === null ? null : [...settings.hazardousCargo],
  };
}

const knownCargo = (value: string): HazardousCargo =>
  (HAZARDOUS_CARGO as readonly string[]).includes(value) ? (value as HazardousCargo) : 'other';

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * An item without the attribute reads as nothing set. A cargo
 * class this code does not know (written by a newer version) reads as `other`: still hazardous,
 * never dropped, so the truck is not routed as if it carried nothing.
 */
export function fromTruckProfileAttribute(attribute: Partial<TruckProfileAttribute> | undefined | null) {
  if (!attribute) return { ...UNSET_TRUCK_PROFILE };
  const cargo = attribute.hazardous_cargo;
  return {
    heightInches: numberOrNull(attribute.height_inches),
    widthInches: numberOrNull(attribute.width_inches),
    lengthFeet: numberOrNull(attribute.length_feet),
    grossWeightLbs: numberOrNull(attribute.gross_weight_lbs),
    axleCount: numberOrNull(attribute.axle_count),
    hazardousCargo: Array.isArray(cargo) ? [...new Set(cargo.map(knownCargo))] : null,
  } satisfies TruckProfileSettings;
}
