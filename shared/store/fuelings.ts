import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';
import { isConditionFailure } from './transactions.ts';

/**
 * A fueling (`FLEET#…`/`FUELING#fuel_…`), listed per fleet by time (the id is a ULID) and per
 * vehicle through gsi1 (`FLEET#…#VEH#veh_…`). Detected fuelings carry a deterministic id, so a
 * worker that detects the same rise twice writes one record.
 */
export const fuelingKey = (fleetId: string, fuelingId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `FUELING#${fuelingId}`,
});

export interface Fueling {
  id: string;
  vehicleId: string;
  source: 'detected' | 'reported';
  gallons: number | null;
  fueledAt: string;
  latitude: number | null;
  longitude: number | null;
  fuelLevelBeforePercent: number | null;
  fuelLevelAfterPercent: number | null;
  /** The recommended stop it matched (fueling.matched), if any. */
  guidanceId: string | null;
  stopId: string | null;
  stationId: string | null;
  createdAt: string;
}

export interface FuelingStore {
  /** False when this fueling was already recorded (same id). */
  create(fleetId: string, fueling: Fueling): Promise<boolean>;
}

export function createFuelingStore(client: DocumentClient, tableName: string): FuelingStore {
  return {
    async create(fleetId, fueling) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...fuelingKey(fleetId, fueling.id),
              gsi1pk: `FLEET#${fleetId}#VEH#${fueling.vehicleId}`,
              gsi1sk: `FUELING#${fueling.id}`,
              fueling,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}
