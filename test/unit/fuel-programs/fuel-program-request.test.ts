import { describe, expect, it } from 'vitest';
import { updateFleetBody, updateFleetSettingsBody } from '#shared/fleets/api/schemas.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { validatePart } from '#shared/platform/validation/validate.ts';
import { alongRouteBody, nearbyStationsQuery } from '#shared/stations/api/schemas.ts';

/** The field errors a PATCH body gets, through the validation every route runs. */
function errorsOf(body: unknown, schema = updateFleetSettingsBody) {
  try {
    validatePart('body', schema, body);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'validation_failed') return error.extensions.errors;
    throw error;
  }
  throw new Error(`${JSON.stringify(body)} was accepted`);
}

const program = (fields: Record<string, unknown>) => ({
  fuel_program: { rule: 'required', chains: [{ chain: "Love's", discount_usd_per_gallon: 0.12 }], ...fields },
});

describe('fuel_program on PATCH /v1/fleet and PATCH /v1/fleets/{id}', () => {
  it('takes a whole program, trimming names; a discount and the penalty default to 0', () => {
    const body = {
      fuel_program: {
        rule: 'preferred',
        chains: [{ chain: "  Love's " }, { chain: 'TA', discount_usd_per_gallon: 0.125 }],
      },
    };
    for (const schema of [updateFleetSettingsBody, updateFleetBody]) {
      expect(validatePart('body', schema, body)).toEqual({
        fuel_program: {
          rule: 'preferred',
          chains: [
            { chain: "Love's", discount_usd_per_gallon: 0 },
            { chain: 'TA', discount_usd_per_gallon: 0.125 },
          ],
          off_program_penalty_usd_per_gallon: 0,
        },
      });
    }
  });

  it('counts as the one setting a PATCH /v1/fleet must change', () => {
    expect(validatePart('body', updateFleetSettingsBody, program({}))).toBeDefined();
    expect(errorsOf({})?.map((e) => e.field)).toContain('fuel_program');
  });

  it('clears with rule none and no chains', () => {
    expect(
      validatePart('body', updateFleetSettingsBody, { fuel_program: { rule: 'none', chains: [] } }),
    ).toEqual({ fuel_program: { rule: 'none', chains: [], off_program_penalty_usd_per_gallon: 0 } });
  });

  it.each(['required', 'preferred'])('refuses %s with no chains: a program that accepts nothing', (rule) => {
    expect(errorsOf({ fuel_program: { rule, chains: [] } })).toEqual([
      {
        field: 'fuel_program.chains',
        message: `must list at least one chain with rule ${rule}: a program that accepts no chain would leave plans no station (send rule none to clear the program)`,
      },
    ]);
  });

  it('refuses a chain listed twice under another spelling, naming the first', () => {
    const body = program({
      chains: [
        { chain: "Love's", discount_usd_per_gallon: 0.12 },
        { chain: 'TA' },
        { chain: 'LOVE’S', discount_usd_per_gallon: 0.1 },
      ],
    });
    expect(errorsOf(body)).toEqual([
      {
        field: 'fuel_program.chains.2.chain',
        message: 'is the same chain as chains[0] (case and apostrophes do not matter): list each chain once',
      },
    ]);
  });

  it('refuses discounts outside 0–2.00, finer than a tenth of a cent, or not numbers', () => {
    const chains = [
      { chain: 'A', discount_usd_per_gallon: 2.01 },
      { chain: 'B', discount_usd_per_gallon: -0.01 },
      { chain: 'C', discount_usd_per_gallon: 0.1234 },
      { chain: 'D', discount_usd_per_gallon: '0.12' },
      { chain: 'E', discount_usd_per_gallon: 2 },
    ];
    expect(errorsOf(program({ chains }))).toEqual([
      {
        field: 'fuel_program.chains.0.discount_usd_per_gallon',
        message: 'must be a number from 0 to 2.00 (USD per gallon)',
      },
      {
        field: 'fuel_program.chains.1.discount_usd_per_gallon',
        message: 'must be a number from 0 to 2.00 (USD per gallon)',
      },
      {
        field: 'fuel_program.chains.2.discount_usd_per_gallon',
        message: 'must be in steps of 0.001 USD (a tenth of a cent), e.g. 0.125',
      },
      {
        field: 'fuel_program.chains.3.discount_usd_per_gallon',
        message: 'must be a number from 0 to 2.00 (USD per gallon)',
      },
    ]);
  });

  it('refuses a penalty above 1.00, an unknown rule, empty or overlong names and more than 50 chains', () => {
    expect(errorsOf(program({ off_program_penalty_usd_per_gallon: 1.5 }))).toEqual([
      {
        field: 'fuel_program.off_program_penalty_usd_per_gallon',
        message: 'must be a number from 0 to 1.00 (USD per gallon)',
      },
    ]);
    expect(errorsOf(program({ rule: 'strict' }))?.[0]).toEqual({
      field: 'fuel_program.rule',
      message:
        'must be required (plans never stop where the card is refused), preferred (they may, at the penalty) or none (every station; the chains only give their discounts)',
    });
    expect(errorsOf(program({ chains: [{ chain: '   ' }, { chain: 'x'.repeat(101) }] }))).toEqual([
      { field: 'fuel_program.chains.0.chain', message: 'must not be empty' },
      { field: 'fuel_program.chains.1.chain', message: 'must be at most 100 characters' },
    ]);
    const many = Array.from({ length: 51 }, (_, i) => ({ chain: `Chain ${i}` }));
    expect(errorsOf(program({ chains: many }))).toEqual([
      { field: 'fuel_program.chains', message: 'must have at most 50 chains' },
    ]);
  });

  it('names an unknown member of the program', () => {
    expect(errorsOf(program({ penalty: 0.1 }))).toEqual([
      {
        field: 'fuel_program.penalty',
        message: expect.stringContaining('is not a recognized field'),
      },
    ]);
  });
});

describe('accepted_only on the station queries', () => {
  const nearby = { latitude: '32.7', longitude: '-97.1' };

  it('is false unless the query says true; anything else is 422 naming it', () => {
    expect(validatePart('query', nearbyStationsQuery, nearby).accepted_only).toBe('false');
    expect(
      validatePart('query', nearbyStationsQuery, { ...nearby, accepted_only: 'true' }).accepted_only,
    ).toBe('true');
    try {
      validatePart('query', nearbyStationsQuery, { ...nearby, accepted_only: 'yes' });
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).extensions.errors).toEqual([
        { field: 'accepted_only', message: 'must be true or false' },
      ]);
    }
  });

  it('is a boolean in the along-route body, default false', () => {
    const line = {
      origin: { latitude: 32.7, longitude: -97.1 },
      destination: { latitude: 35.2, longitude: -101.8 },
    };
    expect(validatePart('body', alongRouteBody, line).accepted_only).toBe(false);
    expect(validatePart('body', alongRouteBody, { ...line, accepted_only: true }).accepted_only).toBe(true);
    expect(errorsOf({ ...line, accepted_only: 'true' }, alongRouteBody as never)).toEqual([
      { field: 'accepted_only', message: 'must be true or false' },
    ]);
  });
});
