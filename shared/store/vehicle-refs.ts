import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';
import { vehicleKey } from './vehicles.ts';

/**
 * How long a vehicle's external_ref is reused once read. Events come in bursts per vehicle (a
 * worker cycle records an arrival, a guidance update and an approach together), so a short memory
 * saves most reads; a renamed vehicle's events carry the new name within this long.
 */
export const VEHICLE_REF_TTL_MS = 60_000;
/** Bounds the memory of a long-lived container; the oldest entries go first. */
const MAX_REMEMBERED = 5_000;

export type VehicleRefReader = (fleetId: string, vehicleId: string) => Promise<string | null>;

/**
 * The external_ref of a vehicle (null when it has none or is gone), read with a projection of
 * that one attribute and remembered for VEHICLE_REF_TTL_MS. Concurrent reads of one vehicle share
 * the request; a failed read is forgotten at once, so the next event tries again.
 */
export function createVehicleRefReader(
  client: DocumentClient,
  tableName: string,
  now: () => number,
  ttlMs = VEHICLE_REF_TTL_MS,
): VehicleRefReader {
  const remembered = new Map<string, { untilMs: number; ref: Promise<string | null> }>();
  return (fleetId, vehicleId) => {
    const key = `${fleetId}|${vehicleId}`;
    const nowMs = now();
    const hit = remembered.get(key);
    if (hit && hit.untilMs > nowMs) return hit.ref;
    remembered.delete(key);
    const ref = client
      .send(
        new GetCommand({
          TableName: tableName,
          Key: vehicleKey(fleetId, vehicleId),
          ProjectionExpression: 'external_ref',
        }),
      )
      .then(({ Item }) => (typeof Item?.external_ref === 'string' ? Item.external_ref : null));
    ref.catch(() => {
      if (remembered.get(key)?.ref === ref) remembered.delete(key);
    });
    remembered.set(key, { untilMs: nowMs + ttlMs, ref });
    if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    return ref;
  };
}
