import { FUELING_POLICY } from '../domain/fuelings/policy.ts';
import { averagePrice } from '../domain/fuelings/savings.ts';
import type { Fueling } from '../domain/telematics/fueling-record.ts';
import type { CatalogProvider } from './station-catalog.ts';

/**
 * The benchmark price where a fill was made: the average posted (undiscounted) diesel price of
 * the catalog's stations within the benchmark radius, as the catalog stands when the fill is
 * recorded. Stored on the fueling, so the report never re-prices history when the catalog moves.
 * Null without a position, or with no station in the radius.
 */
export async function benchmarkAt(
  deps: { catalog: CatalogProvider },
  latitude: number | null,
  longitude: number | null,
): Promise<number | null> {
  if (latitude === null || longitude === null) return null;
  const index = await deps.catalog.current();
  const nearby = index.nearby(
    latitude,
    longitude,
    FUELING_POLICY.benchmarkRadiusMiles,
    FUELING_POLICY.benchmarkMaxStations,
  );
  return averagePrice(nearby.map(({ station }) => station.dieselPriceUsdPerGallon));
}

export async function withBenchmark(deps: { catalog: CatalogProvider }, fueling: Fueling): Promise<Fueling> {
  return { ...fueling, benchmarkPrice: await benchmarkAt(deps, fueling.latitude, fueling.longitude) };
}
