import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';

/**
 * The route a guidance session follows (`FLEET#…`/`VEHROUTE#veh_…`), apart from the tracking item so
 * the worker's every-breadcrumb write stays small; it is rewritten only when the vehicle is
 * re-routed (a new session, or off the route).
 */
export const guidanceRouteKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHROUTE#${vehicleId}`,
});

export interface CachedRoute {
  sessionId: string;
  polyline: string;
  distanceMiles: number;
  durationMinutes: number;
}

export interface GuidanceRouteStore {
  get(fleetId: string, vehicleId: string): Promise<CachedRoute | null>;
  put(fleetId: string, vehicleId: string, route: CachedRoute): Promise<void>;
}

export function createGuidanceRouteStore(client: DocumentClient, tableName: string): GuidanceRouteStore {
  return {
    async get(fleetId, vehicleId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: guidanceRouteKey(fleetId, vehicleId) }),
      );
      return Item ? (Item.route as CachedRoute) : null;
    },
    async put(fleetId, vehicleId, route) {
      await client.send(
        new PutCommand({ TableName: tableName, Item: { ...guidanceRouteKey(fleetId, vehicleId), route } }),
      );
    },
  };
}
