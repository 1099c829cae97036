/**
 * State diesel tax as IFTA credits it: the rate per gallon of each jurisdiction (excise plus the
 * per-gallon surcharges IFTA reports), with the quarter it is effective from. An interstate fleet
 * pays each state's tax on the miles it drives there, whatever it bought where; the tax already
 * paid at the pump is credited back on the quarterly return, so for the purchase decision a
 * gallon costs its pump price − the fleet's discount − this rate. The federal tax is not credited.
 *
 * This is the table the stage ships with (and the synthetic price model prices with); operators
 * publish newer rows without a deploy (`/admin/v1/fuel-tax-rates`), and the newest row effective
 * by a moment wins. Rates of late 2025, rounded to a tenth of a cent.
 */
export interface StateTaxRate {
  /** Two-letter code: the 48 contiguous states and DC. */
  state: string;
  usdPerGallon: number;
  /** The quarter from which the rate applies, `YYYY-Qn`. */
  effectiveFrom: string;
}

export const SHIPPED_RATES_QUARTER = '2025-Q4';

const SHIPPED: Record<string, number> = {
  AL: 0.3,
  AZ: 0.27,
  AR: 0.285,
  CA: 0.97,
  CO: 0.33,
  CT: 0.49,
  DE: 0.22,
  DC: 0.36,
  FL: 0.37,
  GA: 0.36,
  ID: 0.33,
  IL: 0.74,
  IN: 0.61,
  IA: 0.325,
  KS: 0.26,
  KY: 0.28,
  LA: 0.2,
  ME: 0.312,
  MD: 0.47,
  MA: 0.24,
  MI: 0.5,
  MN: 0.31,
  MS: 0.18,
  MO: 0.295,
  MT: 0.2975,
  NE: 0.31,
  NV: 0.27,
  NH: 0.222,
  NJ: 0.52,
  NM: 0.21,
  NY: 0.45,
  NC: 0.405,
  ND: 0.23,
  OH: 0.47,
  OK: 0.2,
  OR: 0.4,
  PA: 0.741,
  RI: 0.38,
  SC: 0.28,
  SD: 0.28,
  TN: 0.27,
  TX: 0.2,
  UT: 0.365,
  VT: 0.32,
  VA: 0.43,
  WA: 0.494,
  WV: 0.357,
  WI: 0.329,
  WY: 0.24,
};

export const SHIPPED_STATE_DIESEL_TAX: readonly StateTaxRate[] = Object.entries(SHIPPED).map(
  ([state, usdPerGallon]) => ({ state, usdPerGallon, effectiveFrom: SHIPPED_RATES_QUARTER }),
);

const QUARTER = /^(\d{4})-Q([1-4])$/;

/** The first instant (epoch ms, UTC) of a `YYYY-Qn` quarter; null when malformed. */
export function quarterStartMs(quarter: string): number | null {
  const match = QUARTER.exec(quarter);
  if (!match) return null;
  return Date.UTC(Number(match[1]), (Number(match[2]) - 1) * 3, 1);
}

/** The rates in force at any moment: per state, the newest row effective by then. */
export interface FuelTaxTable {
  /** USD per gallon; null for a state the table does not know (then nothing is credited). */
  rateOf(state: string, atMs: number): number | null;
  readonly rows: readonly StateTaxRate[];
}

export function fuelTaxTable(rows: readonly StateTaxRate[]): FuelTaxTable {
  const byState = new Map<string, { fromMs: number; usdPerGallon: number }[]>();
  for (const row of rows) {
    const fromMs = quarterStartMs(row.effectiveFrom);
    if (fromMs === null) continue;
    const list = byState.get(row.state) ?? [];
    list.push({ fromMs, usdPerGallon: row.usdPerGallon });
    byState.set(row.state, list);
  }
  for (const list of byState.values()) list.sort((a, b) => b.fromMs - a.fromMs);
  return {
    rows,
    rateOf(state, atMs) {
      const list = byState.get(state);
      if (!list) return null;
      // Before the oldest row the oldest rate stands: the table starts where the stage's data does.
      return (list.find((row) => row.fromMs <= atMs) ?? list[list.length - 1])?.usdPerGallon ?? null;
    },
  };
}

export const SHIPPED_FUEL_TAX_TABLE = fuelTaxTable(SHIPPED_STATE_DIESEL_TAX);
