import { config } from '../platform/config.ts';
import { documentClient } from './dynamo-client.ts';
import { repositories } from './repositories.ts';
import { createVehiclePositionStore, type VehiclePositionStore } from './vehicle-positions.ts';
import type { VehicleStore } from './vehicles.ts';

let cached: { vehicles: VehicleStore; positions: VehiclePositionStore } | undefined;

/**
 * Vehicles and positions, for ingest and the latest-location read; apart from the station
 * repositories so these hot functions bundle neither the catalog nor the router.
 */
export function positionRepositories() {
  cached ??= {
    vehicles: repositories().vehicles,
    positions: createVehiclePositionStore(documentClient(), config().tableName),
  };
  return cached;
}
