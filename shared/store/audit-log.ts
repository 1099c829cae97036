import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry, AuditLog } from '../domain/accounts/audit.ts';
import { newId } from '../platform/ids.ts';
import type { CursorCodec, Page } from './cursor.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { GSI1 } from './table.ts';

/**
 * The audit trail in the control-plane table: `AUDIT` / `<at>#<id>` (newest first by a reverse
 * query), and on gsi1 `AUDIT#<account>` for one account's trail. Access changes are a few a day,
 * far below one partition's write limit.
 */
export interface AuditStore extends AuditLog {
  list(filter: { accountId?: string }, limit: number, cursor: string | undefined): Promise<Page<AuditEntry>>;
}

export function createAuditStore(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): AuditStore {
  return {
    async record(entry) {
      const id = newId('auditEntry', Date.parse(entry.at));
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: 'AUDIT',
            sk: `${entry.at}#${id}`,
            ...(entry.accountId ? { gsi1pk: `AUDIT#${entry.accountId}`, gsi1sk: `${entry.at}#${id}` } : {}),
            id,
            at: entry.at,
            actor: entry.actor,
            action: entry.action,
            account_id: entry.accountId,
            target: entry.target,
            reason: entry.reason,
            details: entry.details,
          },
        }),
      );
    },

    async list(filter, limit, cursor) {
      if (!cursors) throw new Error('createAuditStore needs a cursor codec to list entries');
      const scope = `audit:${filter.accountId ?? '*'}`;
      const { Items = [], LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: tableName,
          ...(filter.accountId
            ? {
                IndexName: GSI1,
                KeyConditionExpression: 'gsi1pk = :pk',
                ExpressionAttributeValues: { ':pk': `AUDIT#${filter.accountId}` },
              }
            : {
                KeyConditionExpression: 'pk = :pk',
                ExpressionAttributeValues: { ':pk': 'AUDIT' },
                ConsistentRead: true,
              }),
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: cursor ? cursors.decode(scope, cursor) : undefined,
        }),
      );
      return {
        data: Items.map((item) => ({
          id: item.id as string,
          at: item.at as string,
          actor: item.actor as AuditEntry['actor'],
          action: item.action as string,
          accountId: (item.account_id as string | null) ?? null,
          target: item.target as AuditEntry['target'],
          reason: (item.reason as string | null) ?? null,
          details: (item.details as AuditEntry['details'] | undefined) ?? {},
        })),
        next_cursor: LastEvaluatedKey ? cursors.encode(scope, LastEvaluatedKey) : null,
      };
    },
  };
}
