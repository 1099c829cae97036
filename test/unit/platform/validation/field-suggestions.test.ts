import { describe, expect, it } from 'vitest';
import { editDistance, suggestField } from '#shared/platform/validation/field-suggestions.ts';

const VEHICLE_FIELDS = ['external_ref', 'name', 'vin', 'tank_size_gallons', 'estimated_mpg', 'license_plate'];
const NEARBY_QUERY = ['latitude', 'longitude', 'radius_miles', 'chain', 'fuel', 'limit'];

describe('suggestField', () => {
  it.each([
    ['tank_size_liters', VEHICLE_FIELDS, 'tank_size_gallons'],
    ['tankSizeGallons', VEHICLE_FIELDS, 'tank_size_gallons'],
    ['estimated_mgp', VEHICLE_FIELDS, 'estimated_mpg'],
    ['licence_plate', VEHICLE_FIELDS, 'license_plate'],
    ['externalRef', VEHICLE_FIELDS, 'external_ref'],
    ['radius_km', NEARBY_QUERY, 'radius_miles'],
    ['lat', NEARBY_QUERY, 'latitude'],
    ['lon', NEARBY_QUERY, 'longitude'],
    ['limt', NEARBY_QUERY, 'limit'],
  ])('suggests the known field for %s', (unknown, known, expected) => {
    // Act / Assess
    expect(suggestField(unknown, known)).toBe(expected);
  });

  it.each([
    ['colour', VEHICLE_FIELDS],
    ['altitude', NEARBY_QUERY],
    ['x', NEARBY_QUERY],
    ['z'.repeat(500), VEHICLE_FIELDS],
    ['tank_size_gallons', []],
  ])('suggests nothing for %s: a wrong guess is worse than none', (unknown, known) => {
    // Act / Assess
    expect(suggestField(unknown, known)).toBeNull();
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    // Act / Assess
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('mpg', 'mpg')).toBe(0);
  });
});
