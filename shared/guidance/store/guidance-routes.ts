import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import { conditionalWrite } from '#shared/table/transactions.ts';

/**
 * The route a guidance session follows (`FLEET#…`/`VEHROUTE#veh_…#gd_…#r<revision>`), apart from
 * the tracking item so the worker's write stays small. Each re-route is a new, immutable item
 * named by its revision, which the session records: a cycle that loses a race never overwrites the
 * route of the one that won, and a container may keep a route in memory for as long as it likes
 * (the worker reads one per cycle otherwise). Routes stored before revisions have no `#r…`.
 */
export const guidanceRouteKey = (
  fleetId: string,
  vehicleId: string,
  sessionId: string,
  revision: number | null = null,
) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHROUTE#${vehicleId}#${sessionId}${revision === null ? '' : `#r${revision}`}`,
});

/** Routes a container keeps in memory (a few KB each); the oldest go first. */
const MAX_REMEMBERED_ROUTES = 500;

/** Longer than any trip; expired routes belong to ended sessions. */
export const GUIDANCE_ROUTE_RETENTION_DAYS = 30;

export interface CachedRoute {
  sessionId: string;
  /** Null for a route stored before revisions (the one item of its session, rewritten on re-route). */
  revision: number | null;
  polyline: string;
  distanceMiles: number;
  durationMinutes: number;
}

export interface GuidanceRouteStore {
  /** The session's route of that revision (null: the one stored before revisions). */
  get(
    fleetId: string,
    vehicleId: string,
    sessionId: string,
    revision: number | null,
  ): Promise<CachedRoute | null>;
  /**
   * Stores a new revision; false when that revision exists already (another cycle re-routed the
   * session in the same millisecond: take the next one). A revision is never overwritten.
   */
  put(fleetId: string, vehicleId: string, route: CachedRoute, nowMs: number): Promise<boolean>;
}

export function createGuidanceRouteStore(client: DocumentClient, tableName: string): GuidanceRouteStore {
  // Immutable items only: a route stored before revisions is rewritten in place, so it is not kept.
  const remembered = new Map<string, CachedRoute>();
  const remember = (key: { sk: string }, route: CachedRoute) => {
    if (route.revision === null) return;
    remembered.set(key.sk, route);
    if (remembered.size > MAX_REMEMBERED_ROUTES) remembered.delete(remembered.keys().next().value as string);
  };
  return {
    async get(fleetId, vehicleId, sessionId, revision) {
      const key = guidanceRouteKey(fleetId, vehicleId, sessionId, revision);
      const hit = remembered.get(key.sk);
      if (hit) return hit;
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: key }));
      if (!Item) return null;
      const route = { ...(Item.route as CachedRoute), revision };
      remember(key, route);
      return route;
    },
    async put(fleetId, vehicleId, route, nowMs) {
      const key = guidanceRouteKey(fleetId, vehicleId, route.sessionId, route.revision);
      const stored = await conditionalWrite(() =>
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...key,
              route,
              expires_at: ttlEpochSeconds(nowMs + GUIDANCE_ROUTE_RETENTION_DAYS * 86_400_000),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
      if (stored) remember(key, route);
      return stored;
    },
  };
}
