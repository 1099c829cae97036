import { logger } from '../platform/observability.ts';
import { createGuidanceRouteStore } from '../store/guidance-routes.ts';
import { createTripStore } from '../store/trips.ts';
import type { StartGuidanceDeps } from '../usecases/guidance.ts';
import { chargeReplannedStations } from '../usecases/station-budget.ts';
import type { VehicleUpdateDeps } from '../usecases/vehicle-updates.ts';
import { createGuidanceWriteDeps, type GuidanceParts, guidanceStores } from './guidance.ts';
import { type Infrastructure, perInfrastructure } from './infrastructure.ts';
import { stationSources } from './stations.ts';
import { tableStores } from './table-stores.ts';

/**
 * Guidance that plans: starting a session, skipping a stop (the plan is remade at once) and the
 * guidance worker's cycle. Routing, the catalog, the discounts and the route cache on top of what
 * the write side needs.
 */
export function createGuidancePlanningDeps(
  infra: Infrastructure,
  parts?: GuidanceParts,
): StartGuidanceDeps & VehicleUpdateDeps {
  const { catalog, discounts, router } = stationSources(infra);
  const { fleets, counters } = tableStores(infra);
  return {
    ...createGuidanceWriteDeps(infra, parts),
    positions: guidanceStores(infra).positions,
    fleets: tableStores(infra).fleets,
    router,
    catalog,
    discounts,
    routes: createGuidanceRouteStore(infra.client, infra.config.tableName),
    trips: createTripStore(infra.client, infra.config.tableName, infra.cursors),
    chargeReplannedStations: async (fleetId, count) => {
      if (count <= 0) return;
      try {
        // A fleet without its record (never in production) bills as its own account.
        const fleet = (await fleets.get(fleetId)) ?? { id: fleetId, partnerId: null };
        await chargeReplannedStations({ counters, now: infra.clock.now }, fleet, count);
      } catch (error) {
        logger.warn('Fleet unavailable; re-planned stations not counted', { error, count });
      }
    },
  };
}

/** POST guidance, skip, and the guidance worker. */
export const guidancePlanningDeps = /* @__PURE__ */ perInfrastructure((infra) =>
  createGuidancePlanningDeps(infra),
);
