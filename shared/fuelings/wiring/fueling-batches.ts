import { guidanceStores } from '#shared/guidance/wiring/guidance.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { type Infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores, vehicleReader } from '#shared/wiring/table-stores.ts';
import type { RecordFuelingsDeps } from '../usecases/fuelings.ts';
import { createFuelingRecordDeps } from './fuelings.ts';

/**
 * What a reported purchase is checked against and where an unverified one waits: the vehicle's
 * breadcrumbs, its tracking item, and the fleet's card program.
 */
export const purchaseCheckDeps = (
  infra: Infrastructure,
): Pick<RecordFuelingsDeps, 'positions' | 'tracking' | 'fuelPrograms'> => ({
  positions: guidanceStores(infra).positions,
  tracking: guidanceStores(infra).tracking,
  fuelPrograms: stationSources(infra).fuelPrograms,
});

/** POST /v1/fuelings: the catalog places each reported fill; the tax table and the fleet price it. */
export const recordFuelingsDeps = /* @__PURE__ */ perInfrastructure(
  (infra): RecordFuelingsDeps => ({
    ...createFuelingRecordDeps(infra),
    ...purchaseCheckDeps(infra),
    vehicles: vehicleReader(infra),
    catalog: stationSources(infra).catalog,
    fuelTaxes: stationSources(infra).fuelTaxes,
    fleets: tableStores(infra).fleets,
    now: infra.clock.now,
  }),
);
