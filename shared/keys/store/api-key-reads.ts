import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CursorCodec } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { sortKeyPrefix } from '#shared/table/query-pages.ts';
import { type ApiKeyStore, accountKeyKey, fromKeyItem, keyIdKey } from './api-key-items.ts';

/** The owner's and the operator's reads: a key, its account, an account's keys a page at a time. */
export function createApiKeyReads(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): Pick<ApiKeyStore, 'get' | 'accountOf' | 'list'> {
  return {
    async get(accountId, keyId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: accountKeyKey(accountId, keyId), ConsistentRead: true }),
      );
      return Item ? fromKeyItem(Item) : null;
    },

    async accountOf(keyId) {
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keyIdKey(keyId) }));
      return (Item?.account_id as string | undefined) ?? null;
    },

    async list(accountId, limit, cursor) {
      if (!cursors) throw new Error('createApiKeyStore needs a cursor codec to list keys');
      const scope = `keys:${accountId}`;
      const { Items = [], LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: tableName,
          ...sortKeyPrefix(`ACCOUNT#${accountId}`, 'KEY#'),
          Limit: limit,
          ConsistentRead: true,
          ExclusiveStartKey: cursor ? cursors.decode(scope, cursor) : undefined,
        }),
      );
      return {
        data: Items.map(fromKeyItem),
        next_cursor: LastEvaluatedKey ? cursors.encode(scope, LastEvaluatedKey) : null,
      };
    },
  };
}
