import { describe, expect, it } from 'vitest';
import { HAZARDOUS_CARGO, STANDARD_TRUCK } from '#shared/fleets/domain/truck-profile.ts';
import {
  AMAZON_HAZARDOUS_CARGO,
  amazonTruckOptions,
  DEFAULT_TRUCK,
  toAmazonTruck,
} from '#shared/geo/amazon-location-truck.ts';

describe('the truck Amazon Location is sent', () => {
  it('converts US units to whole centimetres and kilograms', () => {
    // Act: 13 ft 6 in, 8 ft 6 in, 53 ft, 80,000 lb.
    const truck = toAmazonTruck({
      heightInches: 162,
      widthInches: 102,
      lengthFeet: 53,
      grossWeightLbs: 80_000,
      axleCount: 5,
      hazardousCargo: [],
    });

    // Assess: 411.48 cm, 259.08 cm, 1,615.44 cm, 36,287.39 kg.
    expect(truck).toEqual({
      heightCm: 411,
      widthCm: 259,
      lengthCm: 1_615,
      grossWeightKg: 36_287,
      axleCount: 5,
      hazardousCargos: [],
    });
  });

  it('rounds to the nearest whole unit: 72 in is 182.88 cm → 183, 10,001 lb is 4,536.38 kg → 4,536', () => {
    // Act
    const truck = toAmazonTruck({
      heightInches: 72,
      widthInches: 72,
      lengthFeet: 20,
      grossWeightLbs: 10_001,
      axleCount: 2,
      hazardousCargo: [],
    });

    // Assess: 20 ft = 609.6 cm.
    expect(truck).toMatchObject({ heightCm: 183, widthCm: 183, lengthCm: 610, grossWeightKg: 4_536 });
  });

  it('routes the standard truck when none is given, and that truck is the domain’s STANDARD_TRUCK', () => {
    // Act, Assess
    expect(toAmazonTruck(STANDARD_TRUCK)).toEqual(DEFAULT_TRUCK);
    expect(amazonTruckOptions(undefined)).toEqual(amazonTruckOptions(STANDARD_TRUCK));
  });

  it('knows an Amazon name for every hazardous cargo class of the API, and no other', () => {
    // Assess
    expect(Object.keys(AMAZON_HAZARDOUS_CARGO).sort()).toEqual([...HAZARDOUS_CARGO].sort());
  });

  it.each([
    ['explosive', 'Explosive'],
    ['gas', 'Gas'],
    ['flammable', 'Flammable'],
    ['combustible', 'Combustible'],
    ['organic', 'Organic'],
    ['poison', 'Poison'],
    ['poison_inhalation', 'PoisonousInhalation'],
    ['radioactive', 'Radioactive'],
    ['corrosive', 'Corrosive'],
    ['harmful_to_water', 'HarmfulToWater'],
    ['other', 'Other'],
  ])('sends %s cargo as %s', (cargo, amazon) => {
    // Act
    const options = amazonTruckOptions({ ...STANDARD_TRUCK, hazardousCargo: [cargo] });

    // Assess
    expect(options.HazardousCargos).toEqual([amazon]);
  });

  it.each(['Flammable', 'toString', 'class_3'])(
    'throws on cargo outside the vocabulary (%s): a bug, not input',
    (cargo) => {
      // Act, Assess
      expect(() => toAmazonTruck({ ...STANDARD_TRUCK, hazardousCargo: [cargo] })).toThrow(
        `Hazardous cargo '${cargo}' has no Amazon Location equivalent`,
      );
    },
  );
});
