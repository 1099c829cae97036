import { describe, expect, it } from 'vitest';
import {
  applyTruckProfilePatch,
  resolveTruckProfile,
  STANDARD_TRUCK,
  sameTruckProfileSettings,
  type TruckProfileSettings,
  UNSET_TRUCK_PROFILE,
} from '#shared/fleets/domain/truck-profile.ts';

const settings = (overrides: Partial<TruckProfileSettings>): TruckProfileSettings => ({
  ...UNSET_TRUCK_PROFILE,
  ...overrides,
});

describe('resolveTruckProfile', () => {
  it('is the standard truck, member for member, when neither the vehicle nor the fleet set anything', () => {
    // Act
    const { profile, sources } = resolveTruckProfile(UNSET_TRUCK_PROFILE, null);

    // Assess: 13 ft 6 in, 8 ft 6 in, 70 ft, 80,000 lb, 5 axles, no hazmat
    expect(profile).toEqual({
      heightInches: 162,
      widthInches: 102,
      lengthFeet: 70,
      grossWeightLbs: 80_000,
      axleCount: 5,
      hazardousCargo: [],
    });
    expect(sources).toEqual({
      heightInches: 'standard',
      widthInches: 'standard',
      lengthFeet: 'standard',
      grossWeightLbs: 'standard',
      axleCount: 'standard',
      hazardousCargo: 'standard',
    });
  });

  it('takes each member from the vehicle, else the fleet, else the standard truck', () => {
    // Prepare
    const vehicle = settings({ heightInches: 150, hazardousCargo: ['flammable', 'corrosive'] });
    const fleet = settings({ heightInches: 165, grossWeightLbs: 97_000, axleCount: 6 });

    // Act
    const { profile, sources } = resolveTruckProfile(vehicle, fleet);

    // Assess
    expect(profile).toEqual({
      heightInches: 150,
      widthInches: 102,
      lengthFeet: 70,
      grossWeightLbs: 97_000,
      axleCount: 6,
      hazardousCargo: ['flammable', 'corrosive'],
    });
    expect(sources).toEqual({
      heightInches: 'vehicle',
      widthInches: 'standard',
      lengthFeet: 'standard',
      grossWeightLbs: 'fleet',
      axleCount: 'fleet',
      hazardousCargo: 'vehicle',
    });
  });

  it('an empty cargo list on the vehicle says "none" and wins over the fleet’s hazmat', () => {
    // Act
    const { profile, sources } = resolveTruckProfile(
      settings({ hazardousCargo: [] }),
      settings({ hazardousCargo: ['explosive'] }),
    );

    // Assess
    expect(profile.hazardousCargo).toEqual([]);
    expect(sources.hazardousCargo).toBe('vehicle');
  });

  it('a vehicle without settings (a manual route) takes the fleet’s', () => {
    // Act
    const { profile, sources } = resolveTruckProfile(null, settings({ lengthFeet: 75 }));

    // Assess
    expect(profile.lengthFeet).toBe(75);
    expect(sources.lengthFeet).toBe('fleet');
  });

  it('hands out copies: changing the profile never changes the standard truck or the settings', () => {
    // Prepare
    const vehicle = settings({ hazardousCargo: ['gas'] });

    // Act
    const standard = resolveTruckProfile(null, null).profile;
    standard.hazardousCargo.push('explosive');
    const own = resolveTruckProfile(vehicle, null).profile;
    own.hazardousCargo.push('poison');

    // Assess
    expect(STANDARD_TRUCK.hazardousCargo).toEqual([]);
    expect(vehicle.hazardousCargo).toEqual(['gas']);
  });
});

describe('applyTruckProfilePatch', () => {
  it('replaces the members sent, clears those sent as null, keeps those left out', () => {
    // Prepare
    const current = settings({ heightInches: 150, lengthFeet: 72, hazardousCargo: ['flammable'] });

    // Act
    const next = applyTruckProfilePatch(current, { heightInches: 160, lengthFeet: null, axleCount: 6 });

    // Assess
    expect(next).toEqual(
      settings({ heightInches: 160, lengthFeet: null, axleCount: 6, hazardousCargo: ['flammable'] }),
    );
    expect(current.heightInches).toBe(150);
  });

  it('all members null clears the profile', () => {
    // Act
    const next = applyTruckProfilePatch(
      settings({ heightInches: 150, hazardousCargo: [] }),
      UNSET_TRUCK_PROFILE,
    );

    // Assess
    expect(next).toEqual(UNSET_TRUCK_PROFILE);
  });
});

describe('sameTruckProfileSettings', () => {
  it('compares cargo as a set, and tells none ([]) from not set (null)', () => {
    // Assess
    expect(
      sameTruckProfileSettings(
        settings({ hazardousCargo: ['gas', 'poison'] }),
        settings({ hazardousCargo: ['poison', 'gas'] }),
      ),
    ).toBe(true);
    expect(sameTruckProfileSettings(settings({ hazardousCargo: [] }), UNSET_TRUCK_PROFILE)).toBe(false);
    expect(sameTruckProfileSettings(settings({ axleCount: 5 }), settings({ axleCount: 6 }))).toBe(false);
  });
});
