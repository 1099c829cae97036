import type { RecordFuelingsDeps } from '../usecases/fuelings.ts';
import { createFuelingRecordDeps } from './fuelings.ts';
import { perInfrastructure } from './infrastructure.ts';
import { stationSources } from './stations.ts';
import { vehicleReader } from './table-stores.ts';

/** POST /v1/fuelings: the catalog places and benchmarks each reported fill. */
export const recordFuelingsDeps = /* @__PURE__ */ perInfrastructure(
  (infra): RecordFuelingsDeps => ({
    ...createFuelingRecordDeps(infra),
    vehicles: vehicleReader(infra),
    catalog: stationSources(infra).catalog,
    now: infra.clock.now,
  }),
);
