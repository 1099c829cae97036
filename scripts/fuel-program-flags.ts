import { fuelProgramRequest } from '#shared/fuel-programs/api/schemas.ts';
import { centsToUsd, type FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { fuelProgramFromRequest } from '#shared/fuel-programs/usecases/fuel-programs.ts';

/**
 * The operators' fuel card program flags (`npm run admin -- set-fuel-program | set-discounts`),
 * read into a program with the same checks PATCH /v1/fleet makes: figures are in cents per gallon
 * on the command line, as the card's contract states them, and USD per gallon on the wire.
 */

export interface FuelProgramFlags {
  rule: string;
  /** `Chain=cents,…`; a chain without `=cents` is accepted without a discount. */
  chains: string;
  /** Cents per gallon; absent: 0. */
  penalty?: string | undefined;
}

/** The program the flags describe, or the reasons it cannot be one (each naming what to fix). */
export function fuelProgramFromFlags(
  flags: FuelProgramFlags,
  at: string,
): { program: FuelProgram } | { problems: string[] } {
  const problems: string[] = [];
  const chains = flags.chains
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const [chain = '', cents] = pair.split('=').map((part) => part.trim());
      const discount = cents === undefined ? 0 : typedCentsToUsd(cents);
      if (discount === null) problems.push(`Bad discount "${pair}": use Chain=cents, e.g. "Love's=12"`);
      return { chain, discount_usd_per_gallon: discount ?? 0 };
    });
  const penalty = flags.penalty === undefined ? 0 : typedCentsToUsd(flags.penalty);
  if (penalty === null) problems.push(`Bad --penalty "${flags.penalty}": cents per gallon, e.g. 8`);
  if (problems.length > 0) return { problems };

  const parsed = fuelProgramRequest.safeParse({
    rule: flags.rule,
    chains,
    off_program_penalty_usd_per_gallon: penalty,
  });
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => `${flagOf(issue.path)} ${issue.message}`),
    };
  }
  return { program: fuelProgramFromRequest(parsed.data, at) };
}

/** Cents as typed (digits, at most one decimal: a tenth of a cent) to USD; null for anything else. */
function typedCentsToUsd(text: string): number | null {
  if (!/^\d+(\.\d)?$/.test(text)) return null;
  return centsToUsd(Number(text));
}

/** Where an issue lies, in the flags' terms (amounts are checked in USD: say so in cents). */
function flagOf(path: readonly PropertyKey[]): string {
  const [first, index, field] = path;
  if (first === 'rule') return '--rule';
  if (first === 'off_program_penalty_usd_per_gallon') return '--penalty (in USD per gallon)';
  if (first === 'chains' && typeof index === 'number') {
    return `--chains entry ${index + 1}${field === 'discount_usd_per_gallon' ? ' (its discount, in USD per gallon)' : ''}`;
  }
  return '--chains';
}
