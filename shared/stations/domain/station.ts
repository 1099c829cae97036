import { type ChainDiscounts, discountCentsAt } from '#shared/fuel-programs/domain/program.ts';
/** A priced truck stop, as the catalog holds it. */
export interface Station {
  id: string;
  name: string;
  chain: string;
  latitude: number;
  longitude: number;
  address: string;
  /** Two-letter state code; it drives the price model and taxes. */
  state: string;
  amenities: string[];
  /** Fuels sold, e.g. `diesel`, `def` (diesel exhaust fluid). */
  fuels: string[];
  dieselPriceUsdPerGallon: number;
  /** Epoch milliseconds of the price observation. */
  priceUpdatedAtMs: number;
}

/**
 * Prices older than this are flagged `price_is_stale`: truck-stop diesel moves several cents a
 * week, and feeds that stop updating are the usual way a "cheap" price turns out wrong at the pump.
 */
export const STALE_PRICE_AGE_HOURS = 48;

export function isPriceStale(station: Pick<Station, 'priceUpdatedAtMs'>, nowMs: number): boolean {
  return nowMs - station.priceUpdatedAtMs > STALE_PRICE_AGE_HOURS * 3_600_000;
}

/** A fleet's fuel-card discounts: the fleet's fuel program holds them. */
export type { ChainDiscounts };

export interface StationPrice {
  price: number;
  discount: number;
  net: number;
}

/** Net price = posted price − the fleet's discount at that chain (never below zero). */
export function stationPrice(
  station: Pick<Station, 'chain' | 'dieselPriceUsdPerGallon'>,
  discounts: ChainDiscounts,
): StationPrice {
  const discount = Math.min(station.dieselPriceUsdPerGallon, discountCentsAt(discounts, station.chain) / 100);
  return {
    price: station.dieselPriceUsdPerGallon,
    discount: roundMoney(discount),
    net: roundMoney(station.dieselPriceUsdPerGallon - discount),
  };
}

/** Prices carry a tenth of a cent ($3.459), like pump signs. */
export function roundMoney(value: number): number {
  return Math.round(value * 1000) / 1000;
}
