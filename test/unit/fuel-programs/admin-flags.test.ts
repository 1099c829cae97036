import { describe, expect, it } from 'vitest';
import { fuelProgramFromFlags } from '#scripts/fuel-program-flags.ts';

const AT = '2026-11-21T22:26:10.123000Z';

describe('the operators’ fuel program flags', () => {
  it('reads cents (a tenth allowed), a bare chain as accepted without a discount, and the penalty', () => {
    expect(
      fuelProgramFromFlags(
        { rule: 'preferred', chains: " Love's=12 , Pilot Flying J=15.5,TA,", penalty: '8' },
        AT,
      ),
    ).toEqual({
      program: {
        rule: 'preferred',
        chains: [
          { chain: "Love's", discountCents: 12 },
          { chain: 'Pilot Flying J', discountCents: 15.5 },
          { chain: 'TA', discountCents: 0 },
        ],
        offProgramPenaltyCents: 8,
        updatedAt: AT,
      },
    });
  });

  it('names each malformed figure before checking the program', () => {
    expect(
      fuelProgramFromFlags({ rule: 'required', chains: 'TA=lots,Petro=1.25', penalty: '-3' }, AT),
    ).toEqual({
      problems: [
        'Bad discount "TA=lots": use Chain=cents, e.g. "Love\'s=12"',
        'Bad discount "Petro=1.25": use Chain=cents, e.g. "Love\'s=12"',
        'Bad --penalty "-3": cents per gallon, e.g. 8',
      ],
    });
  });

  it('refuses what PATCH refuses, in the flags’ terms', () => {
    expect(fuelProgramFromFlags({ rule: 'strict', chains: 'TA=201' }, AT)).toEqual({
      problems: [
        expect.stringMatching(/^--rule must be required/),
        '--chains entry 1 (its discount, in USD per gallon) must be a number from 0 to 2.00 (USD per gallon)',
      ],
    });
    expect(fuelProgramFromFlags({ rule: 'none', chains: 'TA=1', penalty: '101' }, AT)).toEqual({
      problems: ['--penalty (in USD per gallon) must be a number from 0 to 1.00 (USD per gallon)'],
    });
  });
});
