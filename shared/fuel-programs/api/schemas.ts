import * as z from 'zod/mini';
import { timestamp } from '#shared/api/common-schemas.ts';
import {
  chainKey,
  FUEL_PROGRAM_LIMITS,
  FUEL_PROGRAM_RULES,
  type FuelProgramRule,
} from '../domain/program.ts';

const RULE_MESSAGE =
  'must be required (plans never stop where the card is refused), preferred (they may, at the penalty) or none (every station; the chains only give their discounts)';

/** Card discounts and penalties are set to a tenth of a cent: finer is a units mistake. */
const STEP_MESSAGE = 'must be in steps of 0.001 USD (a tenth of a cent), e.g. 0.125';

/** USD per gallon from 0 to `maxCents` ÷ 100, in steps of a tenth of a cent. */
function usdPerGallonUpTo(maxCents: number) {
  const max = (maxCents / 100).toFixed(2);
  const message = `must be a number from 0 to ${max} (USD per gallon)`;
  return z.number({ error: message }).check(
    z.minimum(0, { error: message }),
    z.maximum(maxCents / 100, { error: message }),
    z.refine((usd) => Math.abs(usd * 1000 - Math.round(usd * 1000)) < 1e-6, { error: STEP_MESSAGE }),
  );
}

export const fuelProgramRule = z.enum(FUEL_PROGRAM_RULES, { error: RULE_MESSAGE }).check(
  z.meta({
    description:
      '`required`: plans never recommend a station whose chain is not listed; `preferred`: they may, when it is cheaper by more than `off_program_penalty_usd_per_gallon`; `none`: every station is a candidate and the listed chains only give their discounts',
  }),
);

export const fuelProgramSchema = z
  .object({
    rule: fuelProgramRule,
    chains: z
      .array(
        z.object({
          chain: z.string().check(z.meta({ description: 'The chain as the fleet spelled it' })),
          discount_usd_per_gallon: z
            .number()
            .check(z.meta({ description: 'The card’s discount at this chain (0: accepted, no discount)' })),
        }),
      )
      .check(z.meta({ description: 'Where the fleet’s fuel card is accepted, each with its discount' })),
    off_program_penalty_usd_per_gallon: z.number().check(
      z.meta({
        description:
          'What a stop off the program costs a `preferred` plan per gallon when it ranks stops (never added to shown prices); ignored by the other rules',
      }),
    ),
    updated_at: z
      .nullable(timestamp)
      .check(z.meta({ description: 'When the program was last set; null for a fleet that never set one' })),
  })
  .check(
    z.meta({
      id: 'FuelProgram',
      description:
        'The fleet’s fuel card program: the chains where its card is accepted, the discount at each, and how strictly plans keep to them. A fleet that never set one has rule `none` and no chains.',
    }),
  );

const programChainRequest = z.strictObject({
  chain: z.string().check(
    z.trim(),
    z.minLength(1),
    z.maxLength(FUEL_PROGRAM_LIMITS.chainNameMaxLength),
    z.meta({
      description: "The chain as stations name it, e.g. `Love's`; case and apostrophe style do not matter",
    }),
  ),
  discount_usd_per_gallon: z
    ._default(usdPerGallonUpTo(FUEL_PROGRAM_LIMITS.maxDiscountCents), 0)
    .check(z.meta({ description: 'The card’s discount at this chain, 0–2.00 in steps of 0.001; default 0' })),
});

/**
 * `fuel_program` as PATCH /v1/fleet and PATCH /v1/fleets/{id} take it: a whole program, replacing
 * the fleet's. A chain is listed once (by chainKey: "Love's" and "LOVE’S" are one chain), and a
 * rule that keeps plans to the program needs at least one chain.
 */
export const fuelProgramRequest = z
  .strictObject({
    rule: fuelProgramRule,
    chains: z.array(programChainRequest).check(
      z.maxLength(FUEL_PROGRAM_LIMITS.maxChains, {
        error: `must have at most ${FUEL_PROGRAM_LIMITS.maxChains} chains`,
      }),
    ),
    off_program_penalty_usd_per_gallon: z
      ._default(usdPerGallonUpTo(FUEL_PROGRAM_LIMITS.maxPenaltyCents), 0)
      .check(
        z.meta({
          description:
            'Used by `preferred`: what a stop off the program costs a plan per gallon (0–1.00, default 0; at 0 the program only breaks ties: an exact tie always goes to the accepted stop)',
        }),
      ),
  })
  .check(
    z.superRefine((program, ctx) => {
      if (program.chains.length === 0 && program.rule !== 'none') {
        ctx.addIssue({
          code: 'custom',
          path: ['chains'],
          message: emptyProgramMessage(program.rule),
        });
      }
      const first = new Map<string, number>();
      program.chains.forEach(({ chain }, index) => {
        const key = chainKey(chain);
        const earlier = first.get(key);
        if (earlier === undefined) {
          first.set(key, index);
          return;
        }
        ctx.addIssue({
          code: 'custom',
          path: ['chains', index, 'chain'],
          message: `is the same chain as chains[${earlier}] (case and apostrophes do not matter): list each chain once`,
        });
      });
    }),
    z.meta({
      id: 'FuelProgramRequest',
      description:
        'A whole fuel card program: it replaces the fleet’s. Send `{"rule": "none", "chains": []}` to clear it.',
    }),
  );

function emptyProgramMessage(rule: Exclude<FuelProgramRule, 'none'>): string {
  return `must list at least one chain with rule ${rule}: a program that accepts no chain would leave plans no station (send rule none to clear the program)`;
}

export type FuelProgramRequest = z.infer<typeof fuelProgramRequest>;
