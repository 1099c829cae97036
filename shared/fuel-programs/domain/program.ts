/**
 * A fleet's fuel card program: the chains where its card is accepted, the negotiated discount at
 * each, and how strictly plans keep to them.
 * - `none`: every station is a candidate; the listed chains only give their discounts;
 * - `preferred`: every station is a candidate, but a stop off the program costs the plan the
 *   fleet's penalty per gallon (shown in the stop's reason, never in its prices);
 * - `required`: a station whose chain is not in the program is never recommended.
 */
export const FUEL_PROGRAM_RULES = ['none', 'preferred', 'required'] as const;
export type FuelProgramRule = (typeof FUEL_PROGRAM_RULES)[number];

export interface ProgramChain {
  /** The chain as the fleet spells it; matched to a station's chain by chainKey. */
  chain: string;
  /** The card's discount at this chain, cents per gallon (0 when accepted without a discount). */
  discountCents: number;
}

export interface FuelProgram {
  rule: FuelProgramRule;
  chains: readonly ProgramChain[];
  /** What a stop off the program costs a `preferred` plan, cents per gallon (ignored by the other rules). */
  offProgramPenaltyCents: number;
  /** When the program was last set; null for a fleet that never set one. */
  updatedAt: string | null;
}

/** Program amounts are kept in cents with a tenth (12.5); the API speaks USD with three decimals (0.125). */
export const usdToCents = (usd: number) => Math.round(usd * 1000) / 10;

/** Cents (a tenth of a cent at most) as USD: 12.5 → 0.125, without float residue. */
export const centsToUsd = (cents: number) => Math.round(cents * 10) / 1000;

/** A fleet that never set a program: no chains, no discounts, every station a candidate. */
export const NO_FUEL_PROGRAM: FuelProgram = {
  rule: 'none',
  chains: [],
  offProgramPenaltyCents: 0,
  updatedAt: null,
};

export const FUEL_PROGRAM_LIMITS = {
  maxChains: 50,
  chainNameMaxLength: 100,
  /** $2.00: no card discount comes near it; a larger figure is a units mistake (dollars for cents). */
  maxDiscountCents: 200,
  maxPenaltyCents: 100,
} as const;

/**
 * The key a chain name is matched by: case, spacing and the typographic apostrophe do not
 * matter ("LOVE’S" is "Love's"), because a fleet types its card's chains and price feeds spell
 * them their own way. Anything else must match: "Loves" is another chain.
 */
export function chainKey(chain: string): string {
  return chain
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .toLowerCase();
}

/** A fleet's fuel-card discounts: cents per gallon by chain, spelled as the fleet spells them. */
export type ChainDiscounts = Readonly<Record<string, number>>;

/** The program's discounts, as stationPrice reads them. */
export function programDiscounts(program: FuelProgram): ChainDiscounts {
  return Object.fromEntries(program.chains.map(({ chain, discountCents }) => [chain, discountCents]));
}

// Keyed by chainKey once per discounts object: a plan prices thousands of stations with one.
const byChainKey = new WeakMap<ChainDiscounts, ReadonlyMap<string, number>>();

/** The discount at a station's chain, cents per gallon, matching names by chainKey; 0 off the list. */
export function discountCentsAt(discounts: ChainDiscounts, chain: string): number {
  let keyed = byChainKey.get(discounts);
  if (!keyed) {
    keyed = new Map(Object.entries(discounts).map(([name, cents]) => [chainKey(name), cents]));
    byChainKey.set(discounts, keyed);
  }
  return keyed.get(chainKey(chain)) ?? 0;
}

/**
 * Whether the fleet's card is accepted at a station's chain; null when the program has no rule
 * (`none`), where acceptance is not a question plans ask.
 */
export function inFuelProgram(program: FuelProgram, chain: string): boolean | null {
  if (program.rule === 'none') return null;
  const key = chainKey(chain);
  return program.chains.some((listed) => chainKey(listed.chain) === key);
}

/** Whether a plan may recommend a stop at this chain: everything but a refused chain under `required`. */
export function mayRecommend(program: FuelProgram, chain: string): boolean {
  return program.rule !== 'required' || inFuelProgram(program, chain) === true;
}

/**
 * What a purchase at this chain costs the plan on top of its price, USD per gallon: the penalty of
 * a `preferred` program at a chain off it, else 0.
 */
export function offProgramPenalty(program: FuelProgram, chain: string): number {
  if (program.rule !== 'preferred' || inFuelProgram(program, chain) === true) return 0;
  return program.offProgramPenaltyCents / 100;
}
