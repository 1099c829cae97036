import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PHYSICAL_RANGES, physical } from '#shared/api/ranges.ts';
import { createRouteBody } from '#shared/truck-routes/api/schemas.ts';
import { createVehicleBody } from '#shared/vehicles/api/schemas.ts';

/** The rows between the ranges markers of docs/validation.md, as [field, min, max, unit, why]. */
function documentedRanges(): string[][] {
  const text = readFileSync(new URL('../../../docs/validation.md', import.meta.url), 'utf8');
  const table = text.split('<!-- ranges:start')[1]?.split('<!-- ranges:end')[0] ?? '';
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('|---') && !line.startsWith('| Field'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('PHYSICAL_RANGES', () => {
  it('is the table docs/validation.md publishes, row for row', () => {
    // Act
    const expected = Object.entries(PHYSICAL_RANGES).map(([field, r]) => [
      field,
      String(r.min),
      String(r.max),
      r.unit,
      r.why,
    ]);

    // Assess
    expect(documentedRanges()).toEqual(expected);
  });

  it.each(Object.entries(PHYSICAL_RANGES))(
    '%s accepts both ends and refuses just beyond them',
    (name, range) => {
      // Prepare
      const schema = physical(name as keyof typeof PHYSICAL_RANGES);

      // Act / Assess
      expect(schema.safeParse(range.min).success).toBe(true);
      expect(schema.safeParse(range.max).success).toBe(true);
      expect(schema.safeParse(range.min - 0.01).success).toBe(false);
      expect(schema.safeParse(range.max + 0.01).success).toBe(false);
    },
  );

  it('refuses a 950-gallon tank at 35 mpg on vehicles and on the manual route form', () => {
    // Act
    const vehicle = createVehicleBody.safeParse({
      external_ref: 'T1',
      tank_size_gallons: 950,
      estimated_mpg: 35,
    });
    const route = createRouteBody.safeParse({
      origin: { latitude: 32.7, longitude: -96.8 },
      destination: { latitude: 39.7, longitude: -104.9 },
      tank_size_gallons: 950,
      estimated_mpg: 35,
      fuel_level_percent: 50,
    });

    // Assess
    expect(vehicle.error?.issues.map((i) => i.path.join('.'))).toEqual([
      'tank_size_gallons',
      'estimated_mpg',
    ]);
    expect(route.error?.issues.map((i) => i.path.join('.'))).toEqual(['tank_size_gallons', 'estimated_mpg']);
  });
});
