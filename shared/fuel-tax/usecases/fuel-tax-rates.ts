import { logger } from '#shared/platform/observability.ts';
import { mergeTaxRates } from '../domain/rate-table.ts';
import {
  type FuelTaxTable,
  fuelTaxTable,
  SHIPPED_FUEL_TAX_TABLE,
  SHIPPED_STATE_DIESEL_TAX,
  type StateTaxRate,
} from '../domain/state-diesel-tax.ts';
import type { FuelTaxRateStore } from '../store/fuel-tax-rates.ts';

/** The state diesel tax rates in force for pricing: the shipped table with operators' newer rows. */
export interface FuelTaxRatesProvider {
  current(): Promise<FuelTaxTable>;
}

/** The table the stage ships with, for callers (and tests) with no stored rates. */
export const shippedFuelTaxRates: FuelTaxRatesProvider = { current: async () => SHIPPED_FUEL_TAX_TABLE };

/** How long a container prices with the rows it read before asking the store again. */
export const FUEL_TAX_RATES_TTL_MS = 60_000;

/**
 * The table a container prices with: the shipped rows with the operators' stored rows over them,
 * re-read at most once a minute (an operator's update reaches every container within a minute,
 * without a deploy). Concurrent callers share one read. A failed re-read keeps the table already
 * in hand and tries again on the next call; a failed first read is the caller's error.
 */
export function createFuelTaxRatesProvider(options: {
  store: Pick<FuelTaxRateStore, 'list'>;
  now: () => number;
  shipped?: readonly StateTaxRate[];
}): FuelTaxRatesProvider {
  const shipped = options.shipped ?? SHIPPED_STATE_DIESEL_TAX;
  let table: FuelTaxTable | undefined;
  let readAt = -Infinity;
  let reading: Promise<FuelTaxTable> | undefined;

  const read = async () => {
    try {
      const stored = await options.store.list();
      table = fuelTaxTable(mergeTaxRates(shipped, stored));
      readAt = options.now();
      return table;
    } catch (error) {
      if (!table) throw error;
      logger.warn('Fuel tax rates could not be re-read; pricing with the rates already read', { error });
      return table;
    } finally {
      reading = undefined;
    }
  };

  return {
    current() {
      if (table && options.now() - readAt < FUEL_TAX_RATES_TTL_MS) return Promise.resolve(table);
      reading ??= read();
      return reading;
    },
  };
}
