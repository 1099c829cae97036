import { roundMiles, stationResource } from '../api/resources.ts';
import { accountIdOf, type Principal } from '../domain/api-keys.ts';
import { type Plan, usagePeriod } from '../domain/plans.ts';
import type { Station } from '../domain/stations/station.ts';
import { ApiError } from '../platform/errors.ts';
import type { Counters } from '../store/counters.ts';
import type { FuelDiscountStore } from '../store/fuel-discounts.ts';
import type { CatalogProvider } from './station-catalog.ts';

export interface StationQueryDeps {
  catalog: CatalogProvider;
  discounts: Pick<FuelDiscountStore, 'get'>;
  plan: (name: string) => Promise<Plan | null>;
  counters: Pick<Counters, 'addUsage'>;
  now: () => number;
}

export interface NearbyQuery {
  latitude: number;
  longitude: number;
  radius_miles: number;
  chain?: string | undefined;
  fuel?: string | undefined;
  limit: number;
}

/**
 * GET /v1/stations: nearest first, priced for the acting fleet. Every station returned is charged
 * to the account's station-query budget (spec section 8), atomically; enforcement of the budget
 * comes with the limits work and reads the same counter.
 */
export async function nearbyStations(
  deps: StationQueryDeps,
  principal: Principal,
  fleetId: string,
  query: NearbyQuery,
) {
  const plan = await deps.plan(principal.planName);
  if (plan && query.limit > plan.priceQueryCap) {
    throw new ApiError(
      'validation_failed',
      `limit is capped at ${plan.priceQueryCap} on the ${plan.name} plan.`,
      {
        extensions: {
          errors: [{ field: 'limit', message: `must be at most ${plan.priceQueryCap} on your plan` }],
        },
      },
    );
  }
  const [index, discounts] = await Promise.all([deps.catalog.current(), deps.discounts.get(fleetId)]);
  const chain = query.chain?.toLowerCase();
  const fuel = query.fuel?.toLowerCase();
  const accept = (station: Station) =>
    (!chain || station.chain.toLowerCase() === chain) && (!fuel || station.fuels.includes(fuel));
  const found = index.nearby(query.latitude, query.longitude, query.radius_miles, query.limit, accept);
  await chargeStationResults(deps, principal, found.length);
  const nowMs = deps.now();
  return {
    data: found.map(({ station, distanceMiles }) => ({
      ...stationResource(station, discounts, nowMs),
      distance_miles: roundMiles(distanceMiles),
    })),
    next_cursor: null,
    catalog_version: index.version,
  };
}

export async function chargeStationResults(
  deps: Pick<StationQueryDeps, 'counters' | 'now'>,
  principal: Principal,
  count: number,
): Promise<void> {
  if (count === 0) return;
  await deps.counters.addUsage(accountIdOf(principal), usagePeriod(deps.now()).id, 'station_results', count);
}
