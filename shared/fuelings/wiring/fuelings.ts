import { fuelProgramReader } from '#shared/fuel-programs/wiring/fuel-program-reader.ts';
import { createRecommendedStopStore } from '#shared/guidance/store/recommended-stops.ts';
import { eventRecorder } from '#shared/webhooks/wiring/webhooks.ts';
import { type Infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { vehicleReader } from '#shared/wiring/table-stores.ts';
import { createFuelingLister, createFuelingStore } from '../store/fuelings.ts';
import { detectedFuelingRecorder, type FuelingRecordDeps } from '../usecases/fueling-records.ts';
import type { ListFuelingsDeps } from '../usecases/fuelings.ts';

/*
 * Apart from POST /v1/fuelings' wiring (fueling-batches.ts), which needs the station catalog: the
 * guidance functions carry detected fills through these and must not bundle the catalog or router.
 */

/** The stores a fill is recorded through (fuelings, recommended stops; the report rows ride along). */
export const fuelingStores = /* @__PURE__ */ perInfrastructure(({ client, config, cursors }) => ({
  fuelings: createFuelingStore(client, config.tableName, cursors),
  recommendations: createRecommendedStopStore(client, config.tableName),
}));

export function createFuelingRecordDeps(
  infra: Infrastructure,
  events: FuelingRecordDeps['events'] = eventRecorder(infra),
): FuelingRecordDeps {
  return { ...fuelingStores(infra), events, fuelPrograms: fuelProgramReader(infra) };
}

/** The guidance outbox's recorder of detected fills (every writer of a tracking item carries it). */
export const detectedFuelings = (infra: Infrastructure, events?: FuelingRecordDeps['events']) =>
  detectedFuelingRecorder(createFuelingRecordDeps(infra, events));

/** GET /v1/fuelings: the fuelings' list alone, not the stores a fill is recorded through. */
export const listFuelingsDeps = /* @__PURE__ */ perInfrastructure(
  (infra): ListFuelingsDeps => ({
    vehicles: vehicleReader(infra),
    fuelings: createFuelingLister(infra.client, infra.config.tableName, infra.cursors),
  }),
);
