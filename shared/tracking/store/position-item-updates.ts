import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { conditionalWrite } from '#shared/table/transactions.ts';
import type { PositionFix } from '../domain/positions.ts';
import { positionOnlineKeys } from './online-index.ts';
import { latestAttributes, latestPositionKey } from './position-item.ts';

/**
 * Single updates of the latest-position item outside the ring write path: the online index's keys
 * put back (the worker), and the position moved alone (tests and tools).
 */
export function createPositionItemUpdates(client: DocumentClient, tableName: string) {
  return {
    async rejoinOnlineIndex(fleetId: string, vehicleId: string, receivedAtMs: number): Promise<void> {
      const keys = positionOnlineKeys(fleetId, vehicleId, receivedAtMs);
      await conditionalWrite(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: latestPositionKey(fleetId, vehicleId),
            UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi2pk)',
            ExpressionAttributeValues: { ':pk': keys.gsi2pk, ':sk': keys.gsi2sk },
          }),
        ),
      );
    },

    async recordLatest(fleetId: string, vehicleId: string, fix: PositionFix): Promise<boolean> {
      const attributes = latestAttributes(fix);
      const names = Object.keys(attributes);
      return conditionalWrite(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: latestPositionKey(fleetId, vehicleId),
            UpdateExpression: `SET ${names.map((name) => `${name} = :${name}`).join(', ')}`,
            ConditionExpression: 'attribute_not_exists(recorded_at_ms) OR recorded_at_ms < :recorded_at_ms',
            ExpressionAttributeValues: Object.fromEntries(
              names.map((name) => [`:${name}`, attributes[name]]),
            ),
          }),
        ),
      );
    },
  };
}
