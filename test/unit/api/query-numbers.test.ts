import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { QUERY_INTEGER_MESSAGE, QUERY_NUMBER_MESSAGE } from '#shared/api/query-numbers.ts';
import { listEventsQuery } from '#shared/events/api/schemas.ts';
import { healthHistoryQuery } from '#shared/integration-health/api/schemas.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { validatePart } from '#shared/platform/validation/validate.ts';
import { nearbyStationsQuery } from '#shared/stations/api/schemas.ts';
import { listVehiclesQuery } from '#shared/vehicles/api/schemas.ts';

function failure(validate: () => unknown): ApiError {
  try {
    validate();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a validation failure');
}

const here = { latitude: '32.9', longitude: '-97.0' };

describe('integer query parameters read decimal digits only', () => {
  // What a URL-building bug sends: `limit=0x10`, `limit=1e2`, `limit=%205` (a space), …
  it.each([
    ['hex', '0x10'],
    ['an exponent', '1e2'],
    ['a leading space', ' 5'],
    ['a trailing space', '5 '],
    ['a plus sign', '+5'],
    ['a minus sign', '-5'],
    ['a decimal point', '10.0'],
    ['binary', '0b101'],
    ['Infinity', 'Infinity'],
    ['a word', 'ten'],
  ])('refuses %s (%j) on every integer parameter, naming it and the accepted form', (_form, value) => {
    for (const [schema, query, field] of [
      [listVehiclesQuery, { limit: value }, 'limit'],
      [healthHistoryQuery, { days: value }, 'days'],
      [listEventsQuery, { after_sequence: value }, 'after_sequence'],
      [nearbyStationsQuery, { ...here, limit: value }, 'limit'],
    ] as [z.core.$ZodType, Record<string, string>, string][]) {
      const error = failure(() => validatePart('query', schema, query));
      expect([error.status, error.code]).toEqual([422, 'validation_failed']);
      expect(error.extensions.errors).toEqual([{ field, message: QUERY_INTEGER_MESSAGE }]);
      expect(error.detail).toBe(`The query parameters failed validation: ${field} ${QUERY_INTEGER_MESSAGE}.`);
    }
  });

  it('reads plain digits, leading zeros included, and keeps the range check and its message', () => {
    expect(validatePart('query', listVehiclesQuery, { limit: '16' })).toEqual({ limit: 16 });
    expect(validatePart('query', listVehiclesQuery, { limit: '007' })).toEqual({ limit: 7 });
    expect(validatePart('query', healthHistoryQuery, { days: '10' })).toEqual({ days: 10 });
    expect(validatePart('query', listEventsQuery, { after_sequence: '0' })).toMatchObject({
      after_sequence: 0,
    });
    const error = failure(() => validatePart('query', listVehiclesQuery, { limit: '0' }));
    expect(error.extensions.errors).toEqual([{ field: 'limit', message: 'must be between 1 and 100' }]);
  });

  it('takes an absent or empty parameter as not sent: its default', () => {
    expect(validatePart('query', listVehiclesQuery, {})).toEqual({ limit: 25 });
    expect(validatePart('query', listVehiclesQuery, { limit: '' })).toEqual({ limit: 25 });
    expect(validatePart('query', healthHistoryQuery, { days: '' })).toEqual({ days: 30 });
  });
});

describe('decimal query parameters read digits, a minus and a decimal point only', () => {
  it.each([
    ['hex', '0x10'],
    ['an exponent', '3e1'],
    ['a leading space', ' 32.9'],
    ['a plus sign', '+32.9'],
    ['a bare point', '.5'],
    ['a trailing point', '32.'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
  ])('refuses %s (%j), naming the parameter and the accepted form', (_form, value) => {
    const error = failure(() => validatePart('query', nearbyStationsQuery, { ...here, latitude: value }));
    expect(error.extensions.errors).toEqual([{ field: 'latitude', message: QUERY_NUMBER_MESSAGE }]);
  });

  it('reads signed decimals and keeps the ranges', () => {
    expect(
      validatePart('query', nearbyStationsQuery, {
        latitude: '-33',
        longitude: '151.2093',
        radius_miles: '2.5',
      }),
    ).toMatchObject({ latitude: -33, longitude: 151.2093, radius_miles: 2.5 });
    const error = failure(() => validatePart('query', nearbyStationsQuery, { ...here, radius_miles: '51' }));
    expect(error.extensions.errors).toEqual([
      { field: 'radius_miles', message: 'must be more than 0 and at most 50 miles' },
    ]);
  });

  it('still says a coordinate pair is required together', () => {
    const error = failure(() => validatePart('query', nearbyStationsQuery, { latitude: '32.9' }));
    expect(error.extensions.errors).toEqual([
      { field: 'longitude', message: 'is required: latitude and longitude are required together' },
    ]);
  });
});
