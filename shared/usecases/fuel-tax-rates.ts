import { type FuelTaxTable, SHIPPED_FUEL_TAX_TABLE } from '../domain/fuel-tax/state-diesel-tax.ts';

/** The state diesel tax rates in force for pricing: the shipped table with operators' newer rows. */
export interface FuelTaxRatesProvider {
  current(): Promise<FuelTaxTable>;
}

/** The table the stage ships with, for callers (and tests) with no stored rates. */
export const shippedFuelTaxRates: FuelTaxRatesProvider = { current: async () => SHIPPED_FUEL_TAX_TABLE };
