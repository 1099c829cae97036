/**
 * The synthetic diesel price model behind the embedded catalog (and the sandbox's "synthetic
 * prices"). Deterministic: the same station always gets the same price for the same model version.
 *
 *   price = PADD regional average
 *         + (state diesel tax − the region's mean state tax)   // taxes are what differ across a border
 *         + chain offset                                       // brand pricing posture
 *         + station spread (hash of the station id, ±$0.09)    // local competition
 *
 * Sources (public): EIA "Gasoline and Diesel Fuel Update", weekly retail on-highway diesel by PADD
 * region (levels of late 2025, rounded); state motor-fuel (diesel) tax rates as published by the
 * states and summarised by the API / FHWA (cents per gallon, excise plus per-gallon fees, late
 * 2025, rounded). Figures are a model, not a feed: `npm run stations:import` loads real prices.
 */
import { SHIPPED_STATE_DIESEL_TAX } from '#shared/fuel-tax/domain/state-diesel-tax.ts';

export const PRICE_MODEL_VERSION = '2025-q4.1';

/** EIA PADD regions and sub-regions, USD per gallon (retail on-highway diesel, taxes included). */
export const PADD_DIESEL_AVERAGE_USD: Record<Padd, number> = {
  '1A': 4.05, // New England
  '1B': 3.95, // Central Atlantic
  '1C': 3.62, // Lower Atlantic
  '2': 3.58, // Midwest
  '3': 3.42, // Gulf Coast
  '4': 3.72, // Rocky Mountain
  '5': 4.05, // West Coast less California
  CA: 5.05, // California (EIA reports it separately)
};

export type Padd = '1A' | '1B' | '1C' | '2' | '3' | '4' | '5' | 'CA';

/** State → EIA region. */
export const STATE_PADD: Record<string, Padd> = {
  CT: '1A',
  ME: '1A',
  MA: '1A',
  NH: '1A',
  RI: '1A',
  VT: '1A',
  DE: '1B',
  DC: '1B',
  MD: '1B',
  NJ: '1B',
  NY: '1B',
  PA: '1B',
  FL: '1C',
  GA: '1C',
  NC: '1C',
  SC: '1C',
  VA: '1C',
  WV: '1C',
  IL: '2',
  IN: '2',
  IA: '2',
  KS: '2',
  KY: '2',
  MI: '2',
  MN: '2',
  MO: '2',
  NE: '2',
  ND: '2',
  OH: '2',
  OK: '2',
  SD: '2',
  TN: '2',
  WI: '2',
  AL: '3',
  AR: '3',
  LA: '3',
  MS: '3',
  NM: '3',
  TX: '3',
  CO: '4',
  ID: '4',
  MT: '4',
  UT: '4',
  WY: '4',
  AZ: '5',
  NV: '5',
  OR: '5',
  WA: '5',
  CA: 'CA',
};

/**
 * State diesel tax, USD per gallon: the shipped IFTA table (fuel-tax/state-diesel-tax.ts), the same
 * rates the tax-credited price subtracts, so a border's price step is the tax step it credits back.
 */
export const STATE_DIESEL_TAX_USD: Record<string, number> = Object.fromEntries(
  SHIPPED_STATE_DIESEL_TAX.map((row) => [row.state, row.usdPerGallon]),
);

/** Chains and their pricing posture relative to the regional average (USD per gallon). */
export const CHAIN_OFFSET_USD: Record<string, number> = {
  'Pilot Flying J': 0.06,
  "Love's": 0.04,
  TA: 0.07,
  Petro: 0.05,
  'Sapp Bros': -0.02,
  Kwik: -0.04,
  Independent: -0.06,
};

export const STATION_SPREAD_USD = 0.09;

const regionMeanTax = (() => {
  const sums = new Map<Padd, { total: number; count: number }>();
  for (const [state, padd] of Object.entries(STATE_PADD)) {
    const tax = STATE_DIESEL_TAX_USD[state];
    if (tax === undefined) continue;
    const entry = sums.get(padd) ?? { total: 0, count: 0 };
    entry.total += tax;
    entry.count += 1;
    sums.set(padd, entry);
  }
  return new Map([...sums].map(([padd, { total, count }]) => [padd, total / count]));
})();

/** A deterministic number in [-1, 1) from a string (FNV-1a), so a station's spread never changes. */
export function unitHash(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return ((hash >>> 0) / 0x1_0000_0000) * 2 - 1;
}

/** The modelled posted diesel price at a station, rounded to a tenth of a cent like a pump sign ($3.459). */
export function modelDieselPrice(station: { id: string; state: string; chain: string }): number {
  const padd = STATE_PADD[station.state];
  if (!padd) throw new Error(`No price region for state ${station.state}`);
  const taxDelta = (STATE_DIESEL_TAX_USD[station.state] ?? 0) - (regionMeanTax.get(padd) ?? 0);
  const price =
    PADD_DIESEL_AVERAGE_USD[padd] +
    taxDelta +
    (CHAIN_OFFSET_USD[station.chain] ?? 0) +
    unitHash(station.id) * STATION_SPREAD_USD;
  return Math.round(price * 1000) / 1000;
}
