import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ttlMemo } from '#shared/platform/ttl-memo.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
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
  const remember = ttlMemo<string | null>(ttlMs, now, MAX_REMEMBERED);
  return (fleetId, vehicleId) =>
    remember(`${fleetId}|${vehicleId}`, async () => {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: vehicleKey(fleetId, vehicleId),
          ProjectionExpression: 'external_ref',
        }),
      );
      return typeof Item?.external_ref === 'string' ? Item.external_ref : null;
    });
}
