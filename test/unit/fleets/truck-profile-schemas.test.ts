import { describe, expect, it } from 'vitest';
import { updateFleetSettingsBody } from '#shared/fleets/api/schemas.ts';
import {
  effectiveTruckProfileSchema,
  truckProfileSettingsSchema,
} from '#shared/fleets/api/truck-profile-schemas.ts';
import {
  effectiveTruckProfileResource,
  truckProfileSettingsResource,
} from '#shared/fleets/api/truck-profile-serializers.ts';
import { resolveTruckProfile, UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { truckProfilePatchFromRequest } from '#shared/fleets/usecases/truck-profiles.ts';
import { createVehicleBody, updateVehicleBody } from '#shared/vehicles/api/schemas.ts';

/** The issues of a failed parse as `field: message`. */
function issues(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];
}

describe('truck_profile in requests', () => {
  it.each([
    [
      'height_inches',
      412,
      'truck_profile.height_inches: must be between 72 and 168 inches (6 ft to 14 ft); 13 ft 6 in is 162',
    ],
    [
      'width_inches',
      259,
      'truck_profile.width_inches: must be between 72 and 120 inches (6 ft to 10 ft); 8 ft 6 in is 102',
    ],
    [
      'length_feet',
      21.3,
      null, // 21.3 ft is a short box truck: accepted
    ],
    [
      'length_feet',
      16,
      'truck_profile.length_feet: must be between 20 and 120 feet, tractor and trailers together; a tractor with a 53 ft trailer is about 70',
    ],
    [
      'gross_weight_lbs',
      250_000,
      'truck_profile.gross_weight_lbs: must be between 10,000 and 200,000 pounds; the federal Interstate limit is 80,000',
    ],
    [
      'axle_count',
      5.5,
      'truck_profile.axle_count: must be a whole number between 2 and 13 (axles of tractor and trailers together; a tractor-trailer usually has 5)',
    ],
    [
      'axle_count',
      14,
      'truck_profile.axle_count: must be a whole number between 2 and 13 (axles of tractor and trailers together; a tractor-trailer usually has 5)',
    ],
    ['height_inches', '13\'6"', 'truck_profile.height_inches: must be a number'],
  ])('%s %s → %s', (field, value, expected) => {
    // Act
    const result = createVehicleBody.safeParse({ external_ref: 'T1', truck_profile: { [field]: value } });

    // Assess
    expect(issues(result)).toEqual(expected ? [expected] : []);
  });

  it('accepts both ends of every range', () => {
    // Act
    const low = updateVehicleBody.safeParse({
      truck_profile: {
        height_inches: 72,
        width_inches: 72,
        length_feet: 20,
        gross_weight_lbs: 10_000,
        axle_count: 2,
      },
    });
    const high = updateVehicleBody.safeParse({
      truck_profile: {
        height_inches: 168,
        width_inches: 120,
        length_feet: 120,
        gross_weight_lbs: 200_000,
        axle_count: 13,
      },
    });

    // Assess
    expect(issues(low)).toEqual([]);
    expect(issues(high)).toEqual([]);
  });

  it('refuses a cargo class outside the vocabulary, and one listed twice, naming the vocabulary', () => {
    // Act
    const unknown = updateVehicleBody.safeParse({ truck_profile: { hazardous_cargo: ['class_3'] } });
    const twice = updateVehicleBody.safeParse({
      truck_profile: { hazardous_cargo: ['flammable', 'flammable'] },
    });

    // Assess
    const message =
      'must list each class once, from: explosive, gas, flammable, combustible, organic, poison, poison_inhalation, radioactive, corrosive, harmful_to_water, other';
    expect(issues(unknown)).toEqual([`truck_profile.hazardous_cargo.0: ${message}`]);
    expect(issues(twice)).toEqual([`truck_profile.hazardous_cargo: ${message}`]);
  });

  it('refuses a member it does not know, like any other body', () => {
    // Act
    const result = updateFleetSettingsBody.safeParse({ truck_profile: { height_cm: 412 } });

    // Assess
    expect(issues(result)).toEqual(['truck_profile: is not a recognized field']);
  });

  it('takes null for the whole profile on PATCH, not on create', () => {
    // Act / Assess
    expect(updateVehicleBody.safeParse({ truck_profile: null }).success).toBe(true);
    expect(updateFleetSettingsBody.safeParse({ truck_profile: null }).success).toBe(true);
    expect(createVehicleBody.safeParse({ external_ref: 'T1', truck_profile: null }).success).toBe(false);
  });
});

describe('truckProfilePatchFromRequest', () => {
  it('maps the members sent, null included, and leaves out the members not sent', () => {
    // Act
    const patch = truckProfilePatchFromRequest({ height_inches: 150, axle_count: null, hazardous_cargo: [] });

    // Assess
    expect(patch).toEqual({ heightInches: 150, axleCount: null, hazardousCargo: [] });
  });

  it('null clears every member', () => {
    // Act / Assess
    expect(truckProfilePatchFromRequest(null)).toEqual(UNSET_TRUCK_PROFILE);
  });
});

describe('truck profile serializers', () => {
  it('write the stored settings with nulls where nothing is set, in the schema’s member order', () => {
    // Act
    const resource = truckProfileSettingsResource({
      ...UNSET_TRUCK_PROFILE,
      lengthFeet: 72,
      hazardousCargo: ['gas'],
    });

    // Assess
    expect(resource).toEqual({
      height_inches: null,
      width_inches: null,
      length_feet: 72,
      gross_weight_lbs: null,
      axle_count: null,
      hazardous_cargo: ['gas'],
    });
    expect(Object.keys(resource)).toEqual(Object.keys(truckProfileSettingsSchema.shape));
  });

  it('write a route’s profile and where each member came from', () => {
    // Prepare
    const { profile, sources } = resolveTruckProfile(
      { ...UNSET_TRUCK_PROFILE, axleCount: 6 },
      { ...UNSET_TRUCK_PROFILE, grossWeightLbs: 97_000 },
    );

    // Act
    const resource = effectiveTruckProfileResource(profile, sources);

    // Assess
    expect(resource).toEqual({
      truck_profile: {
        height_inches: 162,
        width_inches: 102,
        length_feet: 70,
        gross_weight_lbs: 97_000,
        axle_count: 6,
        hazardous_cargo: [],
      },
      truck_profile_sources: {
        height_inches: 'standard',
        width_inches: 'standard',
        length_feet: 'standard',
        gross_weight_lbs: 'fleet',
        axle_count: 'vehicle',
        hazardous_cargo: 'standard',
      },
    });
    expect(Object.keys(resource.truck_profile)).toEqual(Object.keys(effectiveTruckProfileSchema.shape));
  });
});
