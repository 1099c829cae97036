import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publicId } from '../../../../shared/api/schemas/common.ts';
import { listVehiclesQuery, vehicleRefParams } from '../../../../shared/api/schemas/vehicles.ts';
import { ApiError } from '../../../../shared/platform/errors.ts';
import { validatePart } from '../../../../shared/platform/http/validate.ts';

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
