import { fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { chargeReplannedStations, fleetBillingAccount } from '#shared/plans/usecases/station-budget.ts';
import { logger } from '#shared/platform/observability.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import type { OfflineSweepDeps } from '#shared/tracking/usecases/offline-sweep.ts';
import type { VehicleUpdateDeps } from '#shared/tracking/usecases/vehicle-updates.ts';
import { createTripStore } from '#shared/trips/store/trips.ts';
import { type Infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createGuidanceRouteStore } from '../store/guidance-routes.ts';
import type { StartGuidanceDeps } from '../usecases/guidance.ts';
import { createGuidanceWriteDeps, type GuidanceParts, guidanceStores } from './guidance.ts';

/**
 * Guidance that plans: starting a session, skipping a stop (the plan is remade at once) and the
 * guidance worker's cycle. Routing, the catalog, the fuel programs and the route cache on top of what
 * the write side needs.
 */
export function createGuidancePlanningDeps(
  infra: Infrastructure,
  parts?: GuidanceParts,
): StartGuidanceDeps & VehicleUpdateDeps & OfflineSweepDeps {
  const { catalog, router, fuelTaxes } = stationSources(infra);
  const { fleets, counters, accounts } = tableStores(infra);
  // The account a fleet bills to never changes, so a container looks it up once.
  const billingAccounts = new Map<string, string>();
  const billingAccountOf = async (fleetId: string) => {
    let accountId = billingAccounts.get(fleetId);
    if (!accountId) {
      accountId = await fleetBillingAccount(fleetId, await fleets.get(fleetId), accounts.accountOfFleet);
      billingAccounts.set(fleetId, accountId);
    }
    return accountId;
  };
  return {
    ...createGuidanceWriteDeps(infra, parts),
    positions: guidanceStores(infra).positions,
    fleets: tableStores(infra).fleets,
    router,
    catalog,
    fuelTaxes,
    routes: createGuidanceRouteStore(infra.client, infra.config.tableName),
    trips: createTripStore(infra.client, infra.config.tableName, infra.cursors),
    recordedFills: fuelingStores(infra).fuelings,
    chargeReplannedStations: async (fleetId, count, sessionAccountId) => {
      if (count <= 0) return;
      try {
        // The session's own account first: the simulator's re-plans bill to it, not the company.
        const accountId = sessionAccountId ?? (await billingAccountOf(fleetId));
        await chargeReplannedStations({ counters, now: infra.clock.now }, { accountId, fleetId }, count);
      } catch (error) {
        logger.warn('Fleet unavailable; re-planned stations not counted', { error, count });
      }
    },
  };
}

/**
 * POST guidance, skip and the guidance worker: they plan with the fleet's fuel program as stored
 * right now (the worker reads it once per cycle: vehicle-updates.ts).
 */
export const guidancePlanningDeps = /* @__PURE__ */ perInfrastructure((infra) =>
  createGuidancePlanningDeps(infra),
);
