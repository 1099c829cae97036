import type { Scope } from '#shared/kernel/access.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { FuelProgramRequest } from '../api/schemas.ts';
import { type FuelProgram, usdToCents } from '../domain/program.ts';

/** Where plans and station queries read a fleet's fuel card program (the fleet's item holds it). */
export interface FuelProgramSource {
  get(fleetId: string): Promise<FuelProgram>;
}

/** The program a PATCH body's `fuel_program` sets, as of `at`. */
export function fuelProgramFromRequest(request: FuelProgramRequest, at: string): FuelProgram {
  return {
    rule: request.rule,
    chains: request.chains.map(({ chain, discount_usd_per_gallon }) => ({
      chain,
      discountCents: usdToCents(discount_usd_per_gallon),
    })),
    offProgramPenaltyCents: usdToCents(request.off_program_penalty_usd_per_gallon),
    updatedAt: at,
  };
}

/** The scope a company key needs, besides the route's, to set its fleet's fuel card program. */
export const FUEL_PROGRAM_OWNER_SCOPE: Scope = 'keys:manage';

/**
 * The card program is the company's commercial terms, not a setting any integration may change:
 * a company key sets it only with the owner's scope. A partner key acts as the fleet's software
 * administrator and may (its grant was checked by the chain).
 */
export function refuseFuelProgramChange(principal: Pick<Principal, 'ownerType' | 'scopes'>): void {
  if (principal.ownerType !== 'company' || principal.scopes.includes(FUEL_PROGRAM_OWNER_SCOPE)) return;
  throw new ApiError(
    'insufficient_scope',
    `Setting fuel_program requires the scope ${FUEL_PROGRAM_OWNER_SCOPE} (the company's owner key).`,
    {
      hint: `send fuel_program with a key that holds ${FUEL_PROGRAM_OWNER_SCOPE}, or leave it out to change the other settings`,
      extensions: { required_scope: FUEL_PROGRAM_OWNER_SCOPE },
    },
  );
}
