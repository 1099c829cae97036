import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';

/**
 * The route a guidance session follows (`FLEET#…`/`VEHROUTE#veh_…#gd_…`), apart from the tracking
 * item so the worker's every-breadcrumb write stays small; rewritten only when the vehicle is
 * re-routed. Keyed by session, so a session start that loses a race never overwrites the route of
 * the session that won.
 */
export const guidanceRouteKey = (fleetId: string, vehicleId: string, sessionId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHROUTE#${vehicleId}#${sessionId}`,
});

/** Longer than any trip; expired routes belong to ended sessions. */
export const GUIDANCE_ROUTE_RETENTION_DAYS = 30;

export interface CachedRoute {
  sessionId: string;
  polyline: string;
  distanceMiles: number;
  durationMinutes: number;
}

export interface GuidanceRouteStore {
  get(fleetId: string, vehicleId: string, sessionId: string): Promise<CachedRoute | null>;
  put(fleetId: string, vehicleId: string, route: CachedRoute, nowMs: number): Promise<void>;
}

export function createGuidanceRouteStore(client: DocumentClient, tableName: string): GuidanceRouteStore {
  return {
    async get(fleetId, vehicleId, sessionId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: guidanceRouteKey(fleetId, vehicleId, sessionId) }),
      );
      return Item ? (Item.route as CachedRoute) : null;
    },
    async put(fleetId, vehicleId, route, nowMs) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...guidanceRouteKey(fleetId, vehicleId, route.sessionId),
            route,
            expires_at: ttlEpochSeconds(nowMs + GUIDANCE_ROUTE_RETENTION_DAYS * 86_400_000),
          },
        }),
      );
    },
  };
}
