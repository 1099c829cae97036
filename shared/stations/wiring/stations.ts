import { createFleetPlanningReader, createFuelProgramReader } from '#shared/fleets/store/fleets.ts';
import type { FuelProgramSource } from '#shared/fuel-programs/usecases/fuel-programs.ts';
import { createFuelTaxRateStore } from '#shared/fuel-tax/store/fuel-tax-rates.ts';
import { createFuelTaxRatesProvider } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { createRoutingEngine } from '#shared/geo/routing-engine-factory.ts';
import { buildSyntheticCatalog, syntheticCatalogVersion } from '#shared/geo/synthetic-catalog.ts';
import { type Infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createEnumerationWindowStore } from '../store/enumeration-windows.ts';
import { createStationCatalogStore } from '../store/station-catalog.ts';
import { guardStationQuery } from '../usecases/enumeration-guard.ts';
import { createCatalogProvider } from '../usecases/station-catalog.ts';
import type { CorridorDeps, StationQueryDeps } from '../usecases/stations.ts';

/**
 * The catalog, the fleets' fuel card programs and the router: apart from the other wiring so that
 * only the functions that price stations or plan routes bundle the highway graph and the synthetic
 * catalog.
 */
export const stationSources = /* @__PURE__ */ perInfrastructure(({ client, config, clock }) => {
  const fuelPrograms: FuelProgramSource = createFuelProgramReader(client, config.tableName);
  let synthetic: { version: string; stations: ReturnType<typeof buildSyntheticCatalog> } | undefined;
  return {
    fuelPrograms,
    catalog: createCatalogProvider({
      store: createStationCatalogStore(client, config.tableName),
      // Built on first use (~30 ms), and only when no imported catalog is current.
      synthetic: () => {
        synthetic ??= { version: syntheticCatalogVersion(), stations: buildSyntheticCatalog(clock.now()) };
        return synthetic;
      },
      now: clock.now,
    }),
    // The shipped table with the operators' rows over them, from the control table both stages
    // share; one provider per container, re-read at most once a minute.
    fuelTaxes: createFuelTaxRatesProvider({
      store: createFuelTaxRateStore(client, config.controlTableName),
      now: clock.now,
    }),
    // The embedded engine is the default on every stage; Amazon Location plugs in behind the same port.
    router: createRoutingEngine({ ROUTING_ENGINE: config.routingEngine, AWS_REGION: config.region }),
  };
});

/** The enumeration guard both station queries run (per key, thresholds from the key's plan). */
const enumerationGuard = /* @__PURE__ */ perInfrastructure((infra): StationQueryDeps['guard'] => {
  const { client, config, clock } = infra;
  const { plans } = tableStores(infra);
  const deps = {
    windows: createEnumerationWindowStore(client, config.tableName),
    plan: (name: string) => plans.get(name),
    now: clock.now,
  };
  return (principal, fleetId, footprint) => guardStationQuery(deps, principal, fleetId, footprint);
});

/** What both station queries are held to: the key's plan, its station budget, the guard. */
function queryLimits(infra: Infrastructure): Pick<StationQueryDeps, 'plan' | 'counters' | 'now' | 'guard'> {
  const { plans, counters } = tableStores(infra);
  return { plan: (name) => plans.get(name), counters, now: infra.clock.now, guard: enumerationGuard(infra) };
}

/** GET /v1/stations. */
export const nearbyStationDeps = /* @__PURE__ */ perInfrastructure((infra): StationQueryDeps => {
  const { catalog, fuelPrograms } = stationSources(infra);
  return { catalog, fuelPrograms, ...queryLimits(infra) };
});

/** POST /v1/stations/along-route. */
export const corridorStationDeps = /* @__PURE__ */ perInfrastructure((infra): CorridorDeps => {
  const { catalog, router } = stationSources(infra);
  return {
    catalog,
    router,
    fleetPlanning: createFleetPlanningReader(infra.client, infra.config.tableName),
    ...queryLimits(infra),
  };
});
