import { type FuelProgram, type FuelProgramRule, NO_FUEL_PROGRAM } from '../domain/program.ts';

/** A fleet's fuel card program as its item's `fuel_program` attribute holds it. */
export interface FuelProgramAttribute {
  rule: FuelProgramRule;
  chains: { chain: string; discount_cents: number }[];
  off_program_penalty_cents: number;
  updated_at: string | null;
}

export function toFuelProgramAttribute(program: FuelProgram): FuelProgramAttribute {
  return {
    rule: program.rule,
    chains: program.chains.map(({ chain, discountCents }) => ({ chain, discount_cents: discountCents })),
    off_program_penalty_cents: program.offProgramPenaltyCents,
    updated_at: program.updatedAt,
  };
}

/** A fleet item without the attribute (a fleet that never set a program) reads as NO_FUEL_PROGRAM. */
export function fromFuelProgramAttribute(attribute: FuelProgramAttribute | undefined): FuelProgram {
  if (!attribute) return NO_FUEL_PROGRAM;
  return {
    rule: attribute.rule,
    chains: attribute.chains.map(({ chain, discount_cents }) => ({
      chain,
      discountCents: Number(discount_cents),
    })),
    offProgramPenaltyCents: Number(attribute.off_program_penalty_cents ?? 0),
    updatedAt: attribute.updated_at ?? null,
  };
}
