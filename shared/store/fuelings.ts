import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Fueling } from '../domain/telematics/fueling-record.ts';
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
