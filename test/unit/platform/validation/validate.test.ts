import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as mini from 'zod/mini';
import { publicId } from '#shared/api/common-schemas.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { MAX_FIELD_ERRORS, validatePart } from '#shared/platform/validation/validate.ts';
import { nearbyStationsQuery } from '#shared/stations/api/schemas.ts';
import { createVehicleBody, listVehiclesQuery, vehicleRefParams } from '#shared/vehicles/api/schemas.ts';

/** A guidance-like body: nested object, strict at both levels. */
const setGuidanceBody = z.strictObject({
  destination: z.strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().optional(),
  }),
  min_arrival_fuel_percent: z.number().min(0).max(100).optional(),
});

function failure(validate: () => unknown): ApiError {
  try {
    validate();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected validatePart to fail');
}

describe('validatePart: field paths', () => {
  it('names a nested field with a dotted path', () => {
    // Act
    const error = failure(() =>
      validatePart('body', setGuidanceBody, { destination: { latitude: 91, longitude: -97.7 } }),
    );

    // Assess
    expect([error.code, error.status]).toEqual(['validation_failed', 422]);
    expect(error.extensions.errors?.map((e) => e.field)).toEqual(['destination.latitude']);
    expect(error.detail).toContain('destination.latitude');
  });

  it('reports every offending field, array indexes included', () => {
    // Prepare
    const batch = z.object({ locations: z.array(z.object({ latitude: z.number() })) });

    // Act
    const error = failure(() =>
      validatePart('body', batch, { locations: [{ latitude: 1 }, { latitude: 2 }, { latitude: 'x' }] }),
    );

    // Assess
    expect(error.extensions.errors?.map((e) => e.field)).toEqual(['locations.2.latitude']);
  });

  it('names each unrecognized key by its own path, top level and nested', () => {
    // Act
    const error = failure(() =>
      validatePart('body', setGuidanceBody, {
        destination: { latitude: 30.27, longitude: -97.74, altitude: 150 },
        colour: 'red',
      }),
    );

    // Assess
    expect(error.extensions.errors).toEqual(
      expect.arrayContaining([
        { field: 'destination.altitude', message: 'is not a recognized field' },
        { field: 'colour', message: 'is not a recognized field' },
      ]),
    );
    expect(error.extensions.errors).toHaveLength(2);
  });

  it('names the body as a whole when it is missing or not an object', () => {
    // Act
    const missing = failure(() => validatePart('body', setGuidanceBody, undefined));
    const array = failure(() => validatePart('body', setGuidanceBody, [1, 2]));

    // Assess
    expect(missing.extensions.errors?.map((e) => e.field)).toEqual(['body']);
    expect(array.extensions.errors?.map((e) => e.field)).toEqual(['body']);
  });

  it('summarizes at most three problems in the detail', () => {
    // Prepare
    const five = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string() });

    // Act
    const error = failure(() => validatePart('body', five, {}));

    // Assess
    expect(error.extensions.errors).toHaveLength(5);
    expect(error.detail).toMatch(/and 2 more/);
  });
});

describe('validatePart: public ids', () => {
  it('reports a malformed id as 400 invalid_public_id, not 422', () => {
    // Prepare
    const params = z.object({ id: publicId('fleet') });

    // Act
    const error = failure(() => validatePart('params', params, { id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4' }));

    // Assess
    expect([error.code, error.status]).toEqual(['invalid_public_id', 400]);
    expect(error.detail).toContain('id');
    expect(error.hint).toContain('flt_');
  });

  it('lets the id problem win over other problems in the same part', () => {
    // Prepare
    const body = z.object({ fleet_id: publicId('fleet'), name: z.string() });

    // Act
    const error = failure(() => validatePart('body', body, { fleet_id: 'nope' }));

    // Assess
    expect(error.code).toBe('invalid_public_id');
    expect(error.detail).toContain('fleet_id');
  });

  it('accepts a vehicle path id either as veh_ id or as ext:<external_ref>', () => {
    // Act / Assess
    expect(validatePart('params', vehicleRefParams, { id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4' })).toEqual({
      id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
    });
    expect(validatePart('params', vehicleRefParams, { id: 'ext:TRUCK-1' })).toEqual({ id: 'ext:TRUCK-1' });
    expect(failure(() => validatePart('params', vehicleRefParams, { id: 'ext:' })).code).toBe(
      'invalid_public_id',
    );
  });
});

describe('validatePart: query parameters', () => {
  it('coerces query strings to numbers and applies defaults', () => {
    // Act
    const given = validatePart('query', listVehiclesQuery, { limit: '10', status: 'inactive' });
    const absent = validatePart('query', listVehiclesQuery, undefined);

    // Assess
    expect(given).toEqual({ limit: 10, status: 'inactive' });
    expect(absent).toEqual({ limit: 25 });
  });

  it.each([
    ['not a number', { limit: 'ten' }, 'limit'],
    ['over the maximum', { limit: '101' }, 'limit'],
    ['not an integer', { limit: '2.5' }, 'limit'],
    ['an unknown status', { status: 'parked' }, 'status'],
  ])('refuses a query %s as 422 validation_failed naming the parameter', (_why, query, field) => {
    // Act
    const error = failure(() => validatePart('query', listVehiclesQuery, query));

    // Assess
    expect([error.code, error.status]).toEqual(['validation_failed', 422]);
    expect(error.extensions.errors?.map((e) => e.field)).toEqual([field]);
    expect(error.detail).toMatch(/query parameters/);
  });
});

describe('validatePart: parts without a schema', () => {
  it('passes path parameters through, or an empty object when there are none', () => {
    // Act / Assess
    expect(validatePart('params', undefined, { a: '1' })).toEqual({ a: '1' });
    expect(validatePart('params', undefined, undefined)).toEqual({});
    expect(validatePart('query', undefined, undefined)).toEqual({});
  });

  it('refuses any query parameter on a route that declares none', () => {
    // Act
    const error = failure(() => validatePart('query', undefined, { a: '1' }));

    // Assess
    expect(error.extensions.errors).toEqual([{ field: 'a', message: 'is not a recognized field' }]);
  });
});

describe('validatePart: unknown fields and query parameters', () => {
  it('suggests the near-miss field of the same object, body and query alike', () => {
    // Act
    const body = failure(() =>
      validatePart('body', createVehicleBody, { external_ref: 'T1', tank_size_liters: 950 }),
    );
    const query = failure(() =>
      validatePart('query', nearbyStationsQuery, { latitude: '32.9', longitude: '-97.0', radius_km: '80' }),
    );

    // Assess
    expect(body.extensions.errors).toEqual([
      { field: 'tank_size_liters', message: 'is not a recognized field; did you mean `tank_size_gallons`?' },
    ]);
    expect(query.extensions.errors).toEqual([
      { field: 'radius_km', message: 'is not a recognized field; did you mean `radius_miles`?' },
    ]);
    expect(query.detail).toBe(
      'The query parameters failed validation: radius_km is not a recognized field; did you mean `radius_miles`?',
    );
  });

  it.each([
    ['zod classic', z.object({ status: z.string().optional() })],
    ['zod/mini', mini.object({ status: mini.optional(mini.string()) })],
  ])(
    'refuses an unknown query parameter even though the query schema is not strict itself (%s)',
    (_, lenient) => {
      // Act
      const error = failure(() => validatePart('query', lenient, { status: 'x', colour: 'red' }));

      // Assess
      expect(error.extensions.errors).toEqual([{ field: 'colour', message: 'is not a recognized field' }]);
      expect(validatePart('query', lenient, { status: 'x' })).toEqual({ status: 'x' });
      expect(validatePart('query', listVehiclesQuery, { cursor: 'abc', limit: '5' })).toEqual({
        cursor: 'abc',
        limit: 5,
      });
    },
  );
});

describe('validatePart: a bounded problem', () => {
  it(`lists at most ${MAX_FIELD_ERRORS} field errors, then says how many there were`, () => {
    // Prepare: about 1.4 MB of unknown keys.
    const body: Record<string, number> = { external_ref: 1 };
    for (let index = 0; index < 150_000; index += 1) body[`unknown_${index}`] = index;

    // Act
    const error = failure(() => validatePart('body', createVehicleBody, body));
    const size = JSON.stringify({ detail: error.detail, ...error.extensions }).length;

    // Assess
    expect(error.extensions.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.extensions.errors?.[0]).toEqual({ field: 'external_ref', message: 'must be a string' });
    expect(error.extensions).toMatchObject({ errors_truncated: true, error_count: 150_001 });
    expect(error.detail).toBe(
      'The request body failed validation: external_ref must be a string; unknown_0 is not a recognized field; unknown_1 is not a recognized field; and 149998 more.',
    );
    expect(size).toBeLessThan(5_000);
  });

  it('shortens a very long field name and leaves a small problem untouched', () => {
    // Act
    const long = failure(() =>
      validatePart('body', createVehicleBody, { external_ref: 'T1', ['k'.repeat(100_000)]: 1 }),
    );
    const small = failure(() =>
      validatePart('body', createVehicleBody, { external_ref: 'T1', colour: 'red' }),
    );

    // Assess
    expect(long.extensions.errors?.[0]?.field).toBe(`${'k'.repeat(100)}…`);
    expect(small.extensions).toEqual({ errors: [{ field: 'colour', message: 'is not a recognized field' }] });
  });
});

describe('validatePart: empty query values', () => {
  it('reads ?latitude=&longitude= as not sent: "is required", never a search at 0,0', () => {
    const error = failure(() => validatePart('query', nearbyStationsQuery, { latitude: '', longitude: '' }));
    expect(error.code).toBe('validation_failed');
    expect(error.extensions.errors).toEqual([
      { field: 'latitude', message: 'is required' },
      { field: 'longitude', message: 'is required' },
    ]);
  });

  it('lets an optional parameter sent empty take its default', () => {
    const query = validatePart('query', nearbyStationsQuery, {
      latitude: '32.7767',
      longitude: '-96.797',
      radius_miles: '',
    });
    expect(query.latitude).toBe(32.7767);
    expect(query.radius_miles).toBe(nearbyStationsQuery.parse({ latitude: 1, longitude: 1 }).radius_miles);
  });
});

describe('validatePart: a batch item', () => {
  it('lists (and looks for near misses of) at most 10 unknown keys, counting the rest', () => {
    const junk = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`unknown_key_${i}`, i]));
    const error = failure(() => validatePart('item', setGuidanceBody, { ...junk }));
    expect(error.extensions.errors).toHaveLength(10);
    expect(error.extensions.errors_truncated).toBe(true);
    expect(error.extensions.error_count).toBe(41); // 40 unknown keys and the missing destination
  });
});
