import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';

/**
 * A vehicle's latest position. The ingest issue (POST /v1/locations) writes it with a conditional
 * "only forward in time" update; routes and guidance read it.
 */
export const latestPositionKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHPOS#${vehicleId}`,
});

export interface LatestPosition {
  latitude: number;
  longitude: number;
  recordedAt: string;
  fuelLevelPercent: number | null;
}

export interface VehiclePositionStore {
  latest(fleetId: string, vehicleId: string): Promise<LatestPosition | null>;
}

export function createVehiclePositionStore(client: DocumentClient, tableName: string): VehiclePositionStore {
  return {
    async latest(fleetId, vehicleId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: latestPositionKey(fleetId, vehicleId) }),
      );
      if (!Item) return null;
      return {
        latitude: Number(Item.latitude),
        longitude: Number(Item.longitude),
        recordedAt: String(Item.recorded_at),
        fuelLevelPercent:
          Item.fuel_level_percent === undefined || Item.fuel_level_percent === null
            ? null
            : Number(Item.fuel_level_percent),
      };
    },
  };
}
