import { quarterStartMs, SHIPPED_STATE_DIESEL_TAX, type StateTaxRate } from './state-diesel-tax.ts';

/**
 * The tax table as operators keep it: the shipped rows, with the rows operators stored over them
 * (`PUT /admin/v1/fuel-tax-rates/{state}`). A stored row for a state and quarter replaces the
 * shipped row of that state and quarter; a stored row for a later quarter takes over from the
 * start of that quarter (FuelTaxTable.rateOf: the newest row effective by a moment wins).
 */

/** The jurisdictions the table covers: the 48 contiguous states and DC. */
export const TAX_JURISDICTIONS: readonly string[] = SHIPPED_STATE_DIESEL_TAX.map((row) => row.state).sort();

/** The highest rate an operator may store: above every state's diesel tax with room to spare. */
export const MAX_USD_PER_GALLON = 2;

/**
 * How far ahead an operator may schedule a rate: states publish next quarter's rates weeks before
 * it starts, and a year ahead is the most a legislated change is known with its amount.
 */
export const MAX_QUARTERS_AHEAD = 4;

/** A row an operator stored, with who stored it and when. */
export interface StoredTaxRate extends StateTaxRate {
  updatedAt: string;
  updatedBy: string;
}

/** A row of the merged table, saying where it comes from. */
export interface SourcedTaxRate extends StateTaxRate {
  source: 'shipped' | 'operator';
  /** When and by whom an operator stored it; null for a shipped row. */
  updatedAt: string | null;
  updatedBy: string | null;
}

/** The merged table at one moment: what the operators' rate listing shows. */
export interface FuelTaxRatesNow {
  asOf: string;
  quarter: string;
  /** Per jurisdiction, the row pricing uses now. */
  inForce: SourcedTaxRate[];
  /** Rows that take over at the start of a later quarter. */
  upcoming: SourcedTaxRate[];
}

const rowKey = (row: StateTaxRate) => `${row.state}#${row.effectiveFrom}`;

/** The shipped rows with the stored ones over them, by state then quarter. */
export function mergeTaxRates(
  shipped: readonly StateTaxRate[],
  stored: readonly StoredTaxRate[],
): SourcedTaxRate[] {
  const rows = new Map<string, SourcedTaxRate>();
  for (const row of shipped)
    rows.set(rowKey(row), { ...row, source: 'shipped', updatedAt: null, updatedBy: null });
  for (const row of stored) rows.set(rowKey(row), { ...row, source: 'operator' });
  return [...rows.values()].sort(byStateThenQuarter);
}

/**
 * Per state, the row in force at `atMs` (the newest effective by then; before a state's oldest
 * row, that oldest row, as FuelTaxTable.rateOf reads it), and the rows that start later.
 */
export function ratesAt(
  rows: readonly SourcedTaxRate[],
  atMs: number,
): { inForce: SourcedTaxRate[]; upcoming: SourcedTaxRate[] } {
  const byState = new Map<string, SourcedTaxRate[]>();
  for (const row of rows) {
    if (quarterStartMs(row.effectiveFrom) === null) continue;
    byState.set(row.state, [...(byState.get(row.state) ?? []), row]);
  }
  const inForce: SourcedTaxRate[] = [];
  const upcoming: SourcedTaxRate[] = [];
  for (const list of byState.values()) {
    const startsLater = (row: SourcedTaxRate) => (quarterStartMs(row.effectiveFrom) as number) > atMs;
    const ordered = [...list].sort(byQuarter);
    const current = ordered.findLast((row) => !startsLater(row)) ?? (ordered[0] as SourcedTaxRate);
    inForce.push(current);
    upcoming.push(...ordered.filter((row) => row !== current && startsLater(row)));
  }
  return { inForce: inForce.sort(byStateThenQuarter), upcoming: upcoming.sort(byStateThenQuarter) };
}

const byQuarter = (a: StateTaxRate, b: StateTaxRate) =>
  (quarterIndex(a.effectiveFrom) ?? 0) - (quarterIndex(b.effectiveFrom) ?? 0);
const byStateThenQuarter = (a: StateTaxRate, b: StateTaxRate) =>
  a.state.localeCompare(b.state) || byQuarter(a, b);

/** The quarter (UTC) a moment falls in, `YYYY-Qn`. */
export function quarterOf(atMs: number): string {
  const date = new Date(atMs);
  return `${date.getUTCFullYear()}-Q${Math.floor(date.getUTCMonth() / 3) + 1}`;
}

/** Quarters counted from year 0, so two quarters subtract; null when malformed. */
export function quarterIndex(quarter: string): number | null {
  const match = /^(\d{4})-Q([1-4])$/.exec(quarter);
  return match ? Number(match[1]) * 4 + Number(match[2]) - 1 : null;
}

/** Why an operator may not store a row effective from this quarter now; null when it may. */
export function effectiveFromProblem(effectiveFrom: string, nowMs: number): string | null {
  const index = quarterIndex(effectiveFrom);
  if (index === null) return 'must be a quarter as YYYY-Qn, e.g. 2026-Q1';
  const current = quarterIndex(quarterOf(nowMs)) as number;
  if (index - current > MAX_QUARTERS_AHEAD) {
    const latest = current + MAX_QUARTERS_AHEAD;
    return `must be at most ${MAX_QUARTERS_AHEAD} quarters after the current one (${quarterOf(nowMs)}), so ${Math.floor(latest / 4)}-Q${(latest % 4) + 1} at the latest`;
  }
  return null;
}
