import { describe, expect, it } from 'vitest';
import { listFuelingsQuery } from '#shared/fuelings/api/schemas.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { validatePart } from '#shared/platform/validation/validate.ts';
import { vehicleRefParams } from '#shared/vehicles/api/schemas.ts';

/** The problem a vehicle reference gets, through the same validation every route runs. */
function refusal(part: 'params' | 'query', value: string): ApiError {
  try {
    if (part === 'params') validatePart('params', vehicleRefParams, { id: value });
    else validatePart('query', listFuelingsQuery, { vehicle_id: value });
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`${value} was accepted`);
}

describe('a vehicle reference that is neither a veh_ id nor ext:<external_ref>', () => {
  it('stays 400 invalid_public_id, and suggests ext: for a bare external_ref (GET /v1/vehicles/TRUCK-042)', () => {
    // Act
    const error = refusal('params', 'TRUCK-042');

    // Assess
    expect([error.code, error.status]).toEqual(['invalid_public_id', 400]);
    expect(error.detail).toBe('id must be a veh_ id or ext:<external_ref>.');
    expect(error.hint).toBe('to name a vehicle by its external_ref, prefix it with ext: (ext:TRUCK-042)');
  });

  it('suggests the same in a query parameter', () => {
    // Act
    const error = refusal('query', 'T-7');

    // Assess
    expect(error.detail).toBe('vehicle_id must be a veh_ id or ext:<external_ref>.');
    expect(error.hint).toBe('to name a vehicle by its external_ref, prefix it with ext: (ext:T-7)');
  });

  it.each([
    ['another kind of id', 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W4'],
    ['a damaged veh_ id', 'veh_01JD7ZK3'],
    ['a value too long to be an external_ref', 'x'.repeat(129)],
  ])('points at the prefix for %s, never suggesting ext:', (_case, value) => {
    // Act
    const error = refusal('params', value);

    // Assess
    expect(error.hint).toBe('check the prefix: a vehicle is named by its veh_ id, or by ext:<external_ref>');
    expect(error.hint).not.toContain(value);
  });

  it('says what follows ext: when the reference after it is missing', () => {
    // Act
    const error = refusal('params', 'ext:');

    // Assess
    expect(error.code).toBe('invalid_public_id');
    expect(error.hint).toBe('write the external_ref after ext: (1 to 128 characters), e.g. ext:TRUCK-042');
  });
});
