import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { vehicleReader } from '#shared/wiring/table-stores.ts';
import { createTripReader, createTripStore } from '../store/trips.ts';
import type { TripDeps } from '../usecases/trips.ts';

/**
 * DELETE /v1/trips/{id} (a planned trip, which has nothing to carry out): the trip store and the
 * vehicles alone. A module apart from trips.ts, whose imports (the route planner, the station catalog and its highway graph) stay in a
 * bundle even when unused (docs/cold-starts.md).
 */
export const tripStoreDeps = /* @__PURE__ */ perInfrastructure(
  (infra): Pick<TripDeps, 'trips' | 'vehicles'> => {
    const { client, config, cursors } = infra;
    return {
      trips: createTripStore(client, config.tableName, cursors),
      vehicles: vehicleReader(infra),
    };
  },
);

/** GET /v1/trips and GET /v1/trips/{id}: the trip store's reads and the vehicles. */
export const tripReadDeps = /* @__PURE__ */ perInfrastructure((infra) => {
  const { client, config, cursors } = infra;
  return {
    trips: createTripReader(client, config.tableName, cursors),
    vehicles: vehicleReader(infra),
  };
});
