import type { TruckProfile, TruckProfileSettings, TruckProfileSource } from '../domain/truck-profile.ts';

/** A vehicle's or a fleet's settings: every member, null where nothing is set. */
export function truckProfileSettingsResource(settings: Readonly<TruckProfileSettings>) {
  return {
    height_inches: settings.heightInches,
    width_inches: settings.widthInches,
    length_feet: settings.lengthFeet,
    gross_weight_lbs: settings.grossWeightLbs,
    axle_count: settings.axleCount,
    hazardous_cargo: settings.hazardousCargo === null ? null : [...settings.hazardousCargo],
  };
}

/** The profile a route was planned for, and where each member came from. */
export function effectiveTruckProfileResource(
  profile: Readonly<TruckProfile>,
  sources: Readonly<Record<keyof TruckProfile, TruckProfileSource>>,
) {
  return {
    truck_profile: {
      height_inches: profile.heightInches,
      width_inches: profile.widthInches,
      length_feet: profile.lengthFeet,
      gross_weight_lbs: profile.grossWeightLbs,
      axle_count: profile.axleCount,
      hazardous_cargo: [...profile.hazardousCargo],
    },
    truck_profile_sources: {
      height_inches: sources.heightInches,
      width_inches: sources.widthInches,
      length_feet: sources.lengthFeet,
      gross_weight_lbs: sources.grossWeightLbs,
      axle_count: sources.axleCount,
      hazardous_cargo: sources.hazardousCargo,
    },
  };
}
