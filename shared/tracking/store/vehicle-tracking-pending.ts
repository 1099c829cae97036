import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type PendingVerification, withPending } from '#shared/fuelings/domain/verification-recheck.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { isConditionFailure } from '#shared/table/transactions.ts';
import { pendingOf, storedPending, trackingKey } from './vehicle-tracking-items.ts';

/** Attempts of adding a pending purchase while worker cycles keep moving the item. */
const MAX_PENDING_ATTEMPTS = 8;

/**
 * POST /v1/fuelings' access: a reported purchase added to the vehicle's pending verifications, a
 * plain attribute beside the worker's packed state.
 */
export function createVehicleTrackingPending(client: DocumentClient, tableName: string) {
  return {
    async addPendingVerification(
      fleetId: string,
      vehicleId: string,
      purchase: Pick<PendingVerification, 'fuelingId' | 'fueledAt'>,
    ): Promise<void> {
      const key = trackingKey(fleetId, vehicleId);
      for (let attempt = 1; ; attempt++) {
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: key,
            ProjectionExpression: 'version, pending_verifications',
            ConsistentRead: true,
          }),
        );
        const pending = storedPending(withPending(pendingOf(Item?.pending_verifications), purchase));
        const version = Item ? Number(Item.version ?? 0) : 0;
        try {
          await (Item
            ? client.send(
                new UpdateCommand({
                  TableName: tableName,
                  Key: key,
                  UpdateExpression: 'SET pending_verifications = :pending, version = :next',
                  ConditionExpression: 'version = :version',
                  ExpressionAttributeValues: {
                    ':pending': pending,
                    ':next': version + 1,
                    ':version': version,
                  },
                }),
              )
            : client.send(
                new PutCommand({
                  TableName: tableName,
                  // No state: the vehicle's first cycle starts from an empty tracker (unpackState).
                  Item: {
                    ...key,
                    pending_verifications: pending,
                    last_seen_ms: null,
                    offline: false,
                    session_status: null,
                    version: 1,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                }),
              ));
          return;
        } catch (error) {
          if (!isConditionFailure(error) || attempt >= MAX_PENDING_ATTEMPTS) throw error;
        }
      }
    },
  };
}
