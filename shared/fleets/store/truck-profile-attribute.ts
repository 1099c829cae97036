import {
  fromItemFields,
  type ItemFields,
  type StoredFields,
  toItemFields,
} from '#shared/table/item-fields.ts';
import {
  HAZARDOUS_CARGO,
  type HazardousCargo,
  type TruckProfileSettings,
  UNSET_TRUCK_PROFILE,
} from '../domain/truck-profile.ts';

/** Each setting's member in the `truck_profile` map of a vehicle's or a fleet's item. */
export const TRUCK_PROFILE_ATTRIBUTES = {
  heightInches: 'height_inches',
  widthInches: 'width_inches',
  lengthFeet: 'length_feet',
  grossWeightLbs: 'gross_weight_lbs',
  axleCount: 'axle_count',
  hazardousCargo: 'hazardous_cargo',
} as const satisfies ItemFields<TruckProfileSettings>;

/** A vehicle's or a fleet's truck profile as its item's `truck_profile` map holds it. */
export type TruckProfileAttribute = StoredFields<TruckProfileSettings, typeof TRUCK_PROFILE_ATTRIBUTES>;

export function toTruckProfileAttribute(settings: Readonly<TruckProfileSettings>): TruckProfileAttribute {
  const cargo = settings.hazardousCargo;
  return toItemFields(
    { ...settings, hazardousCargo: cargo === null ? null : [...cargo] },
    TRUCK_PROFILE_ATTRIBUTES,
  );
}

const knownCargo = (value: unknown): HazardousCargo =>
  (HAZARDOUS_CARGO as readonly unknown[]).includes(value) ? (value as HazardousCargo) : 'other';

const numberOrNull = (value: unknown) => (value === null ? null : Number(value));

/**
 * An item without the attribute reads as nothing set. A cargo
 * class this code does not know (written by a newer version) reads as `other`: still hazardous,
 * never dropped, so the truck is not routed as if it carried nothing.
 */
export function fromTruckProfileAttribute(
  attribute: Readonly<Record<string, unknown>> | undefined | null,
): TruckProfileSettings {
  if (!attribute) return { ...UNSET_TRUCK_PROFILE };
  const stored = fromItemFields<Record<keyof TruckProfileSettings, unknown>>(
    attribute,
    TRUCK_PROFILE_ATTRIBUTES,
  );
  const cargo = stored.hazardousCargo;
  return {
    heightInches: numberOrNull(stored.heightInches),
    widthInches: numberOrNull(stored.widthInches),
    lengthFeet: numberOrNull(stored.lengthFeet),
    grossWeightLbs: numberOrNull(stored.grossWeightLbs),
    axleCount: numberOrNull(stored.axleCount),
    hazardousCargo: Array.isArray(cargo) ? [...new Set(cargo.map(knownCargo))] : null,
  };
}
