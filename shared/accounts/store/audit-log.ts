import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '#shared/kernel/ids.ts';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import {
  fromItemFields,
  type ItemFields,
  type StoredFields,
  toItemFields,
} from '#shared/table/item-fields.ts';
import { type FullQuery, gsi1Partition, queryCursorPage } from '#shared/table/query-pages.ts';
import type { AuditEntry, AuditLog } from '../domain/audit.ts';

/**
 * The audit trail in the control-plane table: `AUDIT` / `<at>#<id>` (newest first by a reverse
 * query), and on gsi1 `AUDIT#<account>` for one account's trail. Access changes are a few a day,
 * far below one partition's write limit.
 */
export interface AuditStore extends AuditLog {
  list(filter: { accountId?: string }, limit: number, cursor: string | undefined): Promise<Page<AuditEntry>>;
}

/** An entry's fields, each under its attribute. */
const AUDIT_ATTRIBUTES = {
  id: 'id',
  at: 'at',
  actor: 'actor',
  action: 'action',
  accountId: 'account_id',
  target: 'target',
  reason: 'reason',
  details: 'details',
} as const satisfies ItemFields<AuditEntry>;

/** An entry as its item holds it; gsi1 only on an entry about an account. */
export type AuditItem = StoredFields<AuditEntry, typeof AUDIT_ATTRIBUTES> & {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
};

function toAuditItem(entry: AuditEntry): AuditItem {
  const sk = `${entry.at}#${entry.id}`;
  return {
    pk: 'AUDIT',
    sk,
    ...(entry.accountId ? { gsi1pk: `AUDIT#${entry.accountId}`, gsi1sk: sk } : {}),
    ...toItemFields(entry, AUDIT_ATTRIBUTES),
  };
}

/** An entry without details has none. */
function fromAuditItem(item: Record<string, unknown>): AuditEntry {
  const entry = fromItemFields<AuditEntry>(item, AUDIT_ATTRIBUTES);
  return { ...entry, details: entry.details ?? {} };
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
          Item: toAuditItem({ id, ...entry }),
        }),
      );
    },

    async list(filter, limit, cursor) {
      if (!cursors) throw new Error('createAuditStore needs a cursor codec to list entries');
      const scope = `audit:${filter.accountId ?? '*'}`;
      const input: FullQuery = {
        TableName: tableName,
        ...(filter.accountId
          ? gsi1Partition(`AUDIT#${filter.accountId}`)
          : {
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': 'AUDIT' },
              ConsistentRead: true,
            }),
        ScanIndexForward: false,
        Limit: limit,
      };
      return queryCursorPage(client, cursors, scope, cursor, input, fromAuditItem);
    },
  };
}
