import type { RecordFuelingsDeps } from '../usecases/fuelings.ts';
import { createFuelingRecordDeps } from './fuelings.ts';
import { perInfrastructure } from './infrastructure.ts';
import { stationSources } from './stations.ts';
import { tableStores, vehicleReader } from './table-stores.ts';

/** POST /v1/fuelings: the catalog places each reported fill; the tax table and the fleet price it. */
export const recordFuelingsDeps = /* @__PURE__ */ perInfrastructure(
  (infra): RecordFuelingsDeps => ({
    ...createFuelingRecordDeps(infra),
    vehicles: vehicleReader(infra),
    catalog: stationSources(infra).catalog,
    fuelTaxes: stationSources(infra).fuelTaxes,
    fleets: tableStores(infra).fleets,
    now: infra.clock.now,
  }),
);
