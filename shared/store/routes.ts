import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';

/** Computed routes are kept for replay this long (GET /v1/routes/{id}). */
export const ROUTE_RETENTION_DAYS = 90;

export const routeKey = (fleetId: string, routeId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `RTE#${routeId}`,
});

/**
 * A route is stored as the exact JSON text it was answered with, so a replay is the same bytes
 * even after the serializer or the catalog changes.
 */
export interface RouteStore {
  put(fleetId: string, routeId: string, json: string, createdAtMs: number): Promise<void>;
  get(fleetId: string, routeId: string): Promise<string | null>;
}

export function createRouteStore(client: DocumentClient, tableName: string): RouteStore {
  return {
    async put(fleetId, routeId, json, createdAtMs) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...routeKey(fleetId, routeId),
            json,
            expires_at: ttlEpochSeconds(createdAtMs + ROUTE_RETENTION_DAYS * 86_400_000),
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
