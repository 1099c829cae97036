import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { type FullQuery, queryAll, queryCursorPage, sortKeyPrefix } from '#shared/table/query-pages.ts';
import { conditionalWrite, isConditionFailure } from '#shared/table/transactions.ts';
import type { WebhookEndpoint, WebhookOwner } from '../domain/endpoint.ts';

/**
 * Endpoints live in their owner's partition (`FLEET#flt_…` or `PARTNER#ptr_…` / `WHK#whk_…`), so
 * an id of another fleet or partner is simply not found, and the fan-out of an event reads one
 * partition. Secrets are stored so deliveries can be signed; GET and list never return them.
 */
export const ownerPartition = (owner: WebhookOwner) =>
  owner.kind === 'fleet' ? `FLEET#${owner.fleetId}` : `PARTNER#${owner.partnerId}`;
export const endpointKey = (owner: WebhookOwner, endpointId: string) => ({
  pk: ownerPartition(owner),
  sk: `WHK#${endpointId}`,
});

function toItem(endpoint: WebhookEndpoint) {
  return {
    ...endpointKey(endpoint.owner, endpoint.id),
    id: endpoint.id,
    owner: endpoint.owner,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    description: endpoint.description,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    secrets: endpoint.secrets.map((s) => ({ value: s.value, expires_at_ms: s.expiresAtMs })),
    consecutive_failed_deliveries: endpoint.consecutiveFailedDeliveries,
    healthy_since_ms: endpoint.healthySinceMs,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

function fromItem(item: Record<string, unknown>): WebhookEndpoint {
  const i = item as ReturnType<typeof toItem>;
  return {
    id: i.id,
    owner: i.owner,
    url: i.url,
    eventTypes: i.event_types,
    description: i.description ?? null,
    status: i.status,
    disabledReason: i.disabled_reason ?? null,
    secrets: (i.secrets ?? []).map((s) => ({ value: s.value, expiresAtMs: s.expires_at_ms ?? null })),
    consecutiveFailedDeliveries: Number(i.consecutive_failed_deliveries ?? 0),
    healthySinceMs: Number(i.healthy_since_ms ?? Date.parse(i.created_at)),
    createdAt: i.created_at,
    updatedAt: i.updated_at,
  };
}

export interface WebhookEndpointStore {
  create(endpoint: WebhookEndpoint): Promise<void>;
  get(owner: WebhookOwner, endpointId: string): Promise<WebhookEndpoint | null>;
  /**
   * Overwrites an existing endpoint if nobody changed it since `expectedUpdatedAt` (owner edits:
   * PATCH, rotation); false when it is gone or changed meanwhile.
   */
  save(endpoint: WebhookEndpoint, expectedUpdatedAt?: string): Promise<boolean>;
  /** A 2xx: the health fields only, so a concurrent PATCH or rotation is never overwritten. */
  recordSuccess(owner: WebhookOwner, endpointId: string, nowMs: number): Promise<void>;
  /**
   * A delivery exhausted its attempts: counts it atomically and disables the endpoint when
   * `shouldDisable` returns a reason for the new count. Returns the new count.
   */
  recordExhausted(
    owner: WebhookOwner,
    endpointId: string,
    shouldDisable: (consecutive: number, healthySinceMs: number) => string | null,
  ): Promise<number>;
  delete(owner: WebhookOwner, endpointId: string): Promise<boolean>;
  list(owner: WebhookOwner, limit: number, cursor: string | undefined): Promise<Page<WebhookEndpoint>>;
  /** Every endpoint of the owner (an owner has a handful), for the fan-out of an event. */
  all(owner: WebhookOwner): Promise<WebhookEndpoint[]>;
}

export function createWebhookEndpointStore(
  client: DocumentClient,
  tableName: string,
  cursors: CursorCodec,
): WebhookEndpointStore {
  const ownerEndpoints = (owner: WebhookOwner, limit?: number): FullQuery => ({
    TableName: tableName,
    ...sortKeyPrefix(ownerPartition(owner), 'WHK#'),
    Limit: limit,
  });

  return {
    async create(endpoint) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem(endpoint),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    async get(owner, endpointId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: endpointKey(owner, endpointId), ConsistentRead: true }),
      );
      return Item ? fromItem(Item) : null;
    },
    async save(endpoint, expectedUpdatedAt) {
      return conditionalWrite(() =>
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: toItem(endpoint),
            ConditionExpression: expectedUpdatedAt
              ? 'attribute_exists(pk) AND updated_at = :expected'
              : 'attribute_exists(pk)',
            ExpressionAttributeValues: expectedUpdatedAt ? { ':expected': expectedUpdatedAt } : undefined,
          }),
        ),
      );
    },
    async recordSuccess(owner, endpointId, nowMs) {
      await conditionalWrite(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: endpointKey(owner, endpointId),
            UpdateExpression: 'SET consecutive_failed_deliveries = :zero, healthy_since_ms = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':zero': 0, ':now': nowMs },
          }),
        ),
      );
    },
    async recordExhausted(owner, endpointId, shouldDisable) {
      let attributes: Record<string, unknown> | undefined;
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: endpointKey(owner, endpointId),
            UpdateExpression: 'ADD consecutive_failed_deliveries :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        attributes = Attributes;
      } catch (error) {
        if (isConditionFailure(error)) return 0;
        throw error;
      }
      const consecutive = Number(attributes?.consecutive_failed_deliveries ?? 0);
      const reason = shouldDisable(consecutive, Number(attributes?.healthy_since_ms ?? 0));
      if (!reason) return consecutive;
      await conditionalWrite(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: endpointKey(owner, endpointId),
            UpdateExpression: 'SET #status = :disabled, disabled_reason = :reason',
            ConditionExpression: '#status = :active',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':disabled': 'disabled', ':active': 'active', ':reason': reason },
          }),
        ),
      );
      return consecutive;
    },
    async delete(owner, endpointId) {
      return conditionalWrite(() =>
        client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: endpointKey(owner, endpointId),
            ConditionExpression: 'attribute_exists(pk)',
          }),
        ),
      );
    },
    async list(owner, limit, cursor) {
      const scope = `webhooks:${ownerPartition(owner)}`;
      const input: FullQuery = {
        ...ownerEndpoints(owner, limit),
      };
      return queryCursorPage(client, cursors, scope, cursor, input, fromItem);
    },
    async all(owner) {
      return (await queryAll(client, ownerEndpoints(owner))).map(fromItem);
    },
  };
}
