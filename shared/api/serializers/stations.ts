import {
  type ChainDiscounts,
  isPriceStale,
  type Station,
  stationPrice,
} from '../../domain/stations/station.ts';
import { formatTimestamp } from '../../platform/time.ts';

export function stationResource(station: Station, discounts: ChainDiscounts, nowMs: number) {
  const price = stationPrice(station, discounts);
  return {
    id: station.id,
    name: station.name,
    chain: station.chain,
    latitude: station.latitude,
    longitude: station.longitude,
    address: station.address,
    state: station.state,
    amenities: station.amenities,
    fuels: station.fuels,
    diesel_price_usd_per_gallon: price.price,
    discount_usd_per_gallon: price.discount,
    net_price_usd_per_gallon: price.net,
    price_updated_at: formatTimestamp(station.priceUpdatedAtMs),
    price_is_stale: isPriceStale(station, nowMs),
  };
}
