import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';

/** Computed routes are kept for replay this long (GET /v1/routes/{id}). */
export const TRUCK_ROUTE_RETENTION_DAYS = 90;

export const routeKey = (fleetId: string, routeId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `RTE#${routeId}`,
});

/**
 * A route is stored as the exact JSON text it was answered with, so a replay is the same bytes
 * even after the serializer or the catalog changes.
 */
export interface TruckRouteStore {
  put(fleetId: string, routeId: string, json: string, createdAtMs: number): Promise<void>;
  get(fleetId: string, routeId: string): Promise<string | null>;
}

export function createTruckRouteStore(client: DocumentClient, tableName: string): TruckRouteStore {
  return {
    async put(fleetId, routeId, json, createdAtMs) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...routeKey(fleetId, routeId),
            json,
            expires_at: ttlEpochSeconds(createdAtMs + TRUCK_ROUTE_RETENTION_DAYS * 86_400_000),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    async get(fleetId, routeId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: routeKey(fleetId, routeId) }),
      );
      return Item ? String(Item.json) : null;
    },
  };
}
