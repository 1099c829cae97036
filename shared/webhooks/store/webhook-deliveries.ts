import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { type FullQuery, gsi1Partition, queryCursorPage, sortKeyPrefix } from '#shared/table/query-pages.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import { conditionalWrite } from '#shared/table/transactions.ts';
import type { DeliveryStatus, WebhookDelivery } from '../domain/delivery.ts';
import type { WebhookOwner } from '../domain/endpoint.ts';
import { ownerPartition } from './webhook-endpoints.ts';

/** The delivery log outlives the replay window a little, for support questions. */
export const DELIVERY_RETENTION_DAYS = 35;

/**
 * Deliveries sit in their owner's partition under their endpoint (`WHD#whk_…#whd_…`), so an
 * endpoint's log is one Query; gsi1 (`WHK#whk_…#<status>`) serves the `status` filter.
 */
export const deliveryKey = (owner: WebhookOwner, endpointId: string, deliveryId: string) => ({
  pk: ownerPartition(owner),
  sk: `WHD#${endpointId}#${deliveryId}`,
});
const statusIndexKey = (endpointId: string, status: DeliveryStatus) => `WHK#${endpointId}#${status}`;

function toItem(d: WebhookDelivery) {
  return {
    ...deliveryKey(d.owner, d.endpointId, d.id),
    gsi1pk: statusIndexKey(d.endpointId, d.status),
    gsi1sk: d.id,
    delivery: d,
    expires_at: ttlEpochSeconds(Date.parse(d.createdAt) + DELIVERY_RETENTION_DAYS * 86_400_000),
  };
}

export interface WebhookDeliveryStore {
  create(deliveries: readonly WebhookDelivery[]): Promise<void>;
  get(owner: WebhookOwner, endpointId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /**
   * Writes the delivery's new state if it still has `expectedAttempts` attempts and is unfinished,
   * so a redelivered queue message cannot run or record the same attempt twice; false otherwise.
   */
  save(delivery: WebhookDelivery, expectedAttempts: number): Promise<boolean>;
  list(
    owner: WebhookOwner,
    endpointId: string,
    status: DeliveryStatus | undefined,
    limit: number,
    cursor: string | undefined,
  ): Promise<Page<WebhookDelivery>>;
}

export function createWebhookDeliveryStore(
  client: DocumentClient,
  tableName: string,
  cursors: CursorCodec,
): WebhookDeliveryStore {
  return {
    async create(deliveries) {
      // An event fans out to a handful of endpoints: parallel single puts are simpler than batches.
      await Promise.all(
        deliveries.map((d) =>
          client.send(
            new PutCommand({
              TableName: tableName,
              Item: toItem(d),
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          ),
        ),
      );
    },
    async get(owner, endpointId, deliveryId) {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: deliveryKey(owner, endpointId, deliveryId),
          ConsistentRead: true,
        }),
      );
      return Item ? (Item.delivery as WebhookDelivery) : null;
    },
    async save(delivery, expectedAttempts) {
      return conditionalWrite(() =>
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: toItem(delivery),
            ConditionExpression:
              'delivery.attempts = :attempts AND delivery.#status IN (:pending, :retrying)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':attempts': expectedAttempts,
              ':pending': 'pending',
              ':retrying': 'retrying',
            },
          }),
        ),
      );
    },
    async list(owner, endpointId, status, limit, cursor) {
      const scope = `deliveries:${ownerPartition(owner)}:${endpointId}:${status ?? 'all'}`;
      const query = status
        ? gsi1Partition(statusIndexKey(endpointId, status))
        : sortKeyPrefix(ownerPartition(owner), `WHD#${endpointId}#`);
      const input: FullQuery = {
        TableName: tableName,
        ...query,
        // Newest first: the log is read to see what just happened.
        ScanIndexForward: false,
        Limit: limit,
      };
      return queryCursorPage(
        client,
        cursors,
        scope,
        cursor,
        input,
        (item) => item.delivery as WebhookDelivery,
      );
    },
  };
}
