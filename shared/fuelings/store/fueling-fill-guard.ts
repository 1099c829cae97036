import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TransactItem } from '#shared/reports/store/savings-days.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { VehicleFillGuard } from './fueling-items.ts';

/** Per vehicle: bumped by every fill's transaction, so fills of one vehicle recorded at once serialise. */
const vehicleGuardKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `FUELVEH#${vehicleId}`,
});
/** The vehicle's last fills written, kept on its guard: a retry reads them without waiting for gsi1. */
const RECENT_FILLS_KEPT = 10;

/** The vehicle's fill guard (consistent read); version 0 before its first fill. */
export async function readVehicleFillGuard(
  client: DocumentClient,
  tableName: string,
  fleetId: string,
  vehicleId: string,
): Promise<VehicleFillGuard> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: vehicleGuardKey(fleetId, vehicleId),
      ConsistentRead: true,
    }),
  );
  return {
    version: (Item?.version as number | undefined) ?? 0,
    recent: (Item?.recent as VehicleFillGuard['recent'] | undefined) ?? [],
  };
}

/** The vehicle's fill guard moved on by this fill, on condition nobody moved it since it was read. */
export function fillGuardPut(
  tableName: string,
  fleetId: string,
  fueling: Fueling,
  guard: VehicleFillGuard,
): TransactItem {
  const recent = [{ id: fueling.id, fueledAt: fueling.fueledAt }, ...guard.recent].slice(
    0,
    RECENT_FILLS_KEPT,
  );
  return {
    Put: {
      TableName: tableName,
      Item: { ...vehicleGuardKey(fleetId, fueling.vehicleId), version: guard.version + 1, recent },
      ConditionExpression: guard.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
      ...(guard.version === 0 ? {} : { ExpressionAttributeValues: { ':version': guard.version } }),
    },
  };
}
