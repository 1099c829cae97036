import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import {
  fromItemFields,
  type ItemFields,
  type StoredFields,
  toItemFields,
} from '#shared/table/item-fields.ts';
import { type FullQuery, queryCursorPage } from '#shared/table/query-pages.ts';
import { GSI1 } from '#shared/table/table.ts';
import { conditionalTransaction, conditionalWrite } from '#shared/table/transactions.ts';
import { type Account, NO_PRODUCTION_ACCESS, type ProductionAccessSummary } from '../domain/account.ts';
import type { ProductionAccessRequest } from '../domain/production-access.ts';

/**
 * Accounts and production-access requests in the control-plane table:
 * - `ACCOUNT#<id>` / `ACCOUNT`: the account, with a summary of its latest production-access
 *   request (what `GET /v1/production-access` answers and what key creation checks);
 * - `PAR#<id>` / `PAR`: one request, indexed on gsi1 by status so the operator lists the pending
 *   ones oldest first.
 */
export const accountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });
const requestKey = (requestId: string) => ({ pk: `PAR#${requestId}`, sk: 'PAR' });
/** Which company a fleet (live or sandbox twin) belongs to: workers bill a fleet's usage to it. */
const fleetAccountKey = (fleetId: string) => ({ pk: `FLEETACCOUNT#${fleetId}`, sk: 'FLEETACCOUNT' });
const requestIndex = (request: Pick<ProductionAccessRequest, 'status' | 'requestedAt' | 'id'>) => ({
  gsi1pk: `PAR#${request.status}`,
  gsi1sk: `${request.requestedAt}#${request.id}`,
});

/** The account's fields stored as they are, each under its attribute. */
const ACCOUNT_ATTRIBUTES = {
  id: 'id',
  type: 'type',
  name: 'name',
  contactEmail: 'contact_email',
  timezone: 'timezone',
  planName: 'plan_name',
  liveFleetId: 'live_fleet_id',
  sandboxFleetId: 'sandbox_fleet_id',
  createdAt: 'created_at',
} as const satisfies ItemFields<Omit<Account, 'productionAccess'>>;

/** The summary of the latest production-access request, the account item's `production_access` map. */
const SUMMARY_ATTRIBUTES = {
  status: 'status',
  requestId: 'request_id',
  reason: 'reason',
  decidedAt: 'decided_at',
} as const satisfies ItemFields<ProductionAccessSummary>;

/** A production-access request's fields, each under its attribute. */
const REQUEST_ATTRIBUTES = {
  id: 'id',
  accountId: 'account_id',
  status: 'status',
  useCase: 'use_case',
  expectedVehicles: 'expected_vehicles',
  contactEmail: 'contact_email',
  requestedAt: 'requested_at',
  requestedBy: 'requested_by',
  decidedAt: 'decided_at',
  decidedBy: 'decided_by',
  planName: 'plan_name',
  reason: 'reason',
} as const satisfies ItemFields<ProductionAccessRequest>;

/** An account as its item holds it. */
export type AccountItem = StoredFields<Omit<Account, 'productionAccess'>, typeof ACCOUNT_ATTRIBUTES> & {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  production_access: StoredFields<ProductionAccessSummary, typeof SUMMARY_ATTRIBUTES>;
};

function toAccountItem(account: Account): AccountItem {
  return {
    ...accountKey(account.id),
    ...toItemFields(account, ACCOUNT_ATTRIBUTES),
    production_access: toItemFields(account.productionAccess, SUMMARY_ATTRIBUTES),
    // Accounts by type, oldest first.
    gsi1pk: `ACCOUNTS#${account.type}`,
    gsi1sk: account.createdAt,
  };
}

/** An account without a production-access summary (a partner's) has none. */
function fromAccountItem(item: Record<string, unknown>): Account {
  const access = item.production_access as Record<string, unknown> | undefined;
  return {
    ...fromItemFields<Omit<Account, 'productionAccess'>>(item, ACCOUNT_ATTRIBUTES),
    productionAccess: access
      ? fromItemFields<ProductionAccessSummary>(access, SUMMARY_ATTRIBUTES)
      : NO_PRODUCTION_ACCESS,
  };
}

/** A production-access request as its item holds it. */
export type RequestItem = StoredFields<ProductionAccessRequest, typeof REQUEST_ATTRIBUTES> & {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
};

function toRequestItem(request: ProductionAccessRequest): RequestItem {
  return {
    ...requestKey(request.id),
    ...requestIndex(request),
    ...toItemFields(request, REQUEST_ATTRIBUTES),
  };
}

const fromRequestItem = (item: Record<string, unknown>) =>
  fromItemFields<ProductionAccessRequest>(item, REQUEST_ATTRIBUTES);

export interface AccountStore {
  get(accountId: string): Promise<Account | null>;
  /** False when the id is taken. */
  create(account: Account): Promise<boolean>;
  setPlan(accountId: string, planName: string): Promise<boolean>;
  /** Sets the company's live fleet once; false when it already has one (that one stays). */
  setLiveFleet(accountId: string, fleetId: string): Promise<boolean>;
  /** The company account a fleet belongs to; null for partner fleets and unknown ones. */
  accountOfFleet(fleetId: string): Promise<string | null>;
  /**
   * Files a request and points the account's summary at it, provided the summary is still in the
   * status the caller saw (two concurrent requests: one wins). False when it was not.
   */
  fileRequest(
    request: ProductionAccessRequest,
    seenStatus: ProductionAccessSummary['status'],
  ): Promise<boolean>;
  getRequest(requestId: string): Promise<ProductionAccessRequest | null>;
  listRequests(
    status: ProductionAccessRequest['status'],
    limit: number,
    cursor: string | undefined,
  ): Promise<Page<ProductionAccessRequest>>;
  /**
   * Moves a request from `from` to its new state (the decided fields are in `decided`) and the
   * account's summary with it; approval also sets the account's plan. False when the request was
   * no longer in `from` (decided concurrently).
   */
  decideRequest(
    decided: ProductionAccessRequest,
    from: ProductionAccessRequest['status'],
    accountPlan: string | null,
  ): Promise<boolean>;
}

export function createAccountStore(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): AccountStore {
  const summaryOf = (request: ProductionAccessRequest): ProductionAccessSummary => ({
    status: request.status,
    requestId: request.id,
    reason: request.reason,
    decidedAt: request.decidedAt,
  });

  return {
    async get(accountId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: accountKey(accountId), ConsistentRead: true }),
      );
      return Item ? fromAccountItem(Item) : null;
    },

    create(account) {
      const fleetIds = [account.liveFleetId, account.sandboxFleetId].filter(
        (id): id is string => id !== null,
      );
      return conditionalTransaction(client, [
        {
          Put: {
            TableName: tableName,
            Item: toAccountItem(account),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...fleetIds.map((fleetId) => ({
          Put: { TableName: tableName, Item: { ...fleetAccountKey(fleetId), account_id: account.id } },
        })),
      ]);
    },

    setPlan(accountId, planName) {
      return conditionalWrite(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: accountKey(accountId),
            UpdateExpression: 'SET plan_name = :plan',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':plan': planName },
          }),
        ),
      );
    },

    async setLiveFleet(accountId, fleetId) {
      // Set once: a second approval racing the first keeps the fleet the first one set.
      return conditionalTransaction(client, [
        {
          Update: {
            TableName: tableName,
            Key: accountKey(accountId),
            UpdateExpression: 'SET live_fleet_id = :fleet',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(live_fleet_id) OR live_fleet_id = :none)',
            ExpressionAttributeValues: { ':fleet': fleetId, ':none': null },
          },
        },
        { Put: { TableName: tableName, Item: { ...fleetAccountKey(fleetId), account_id: accountId } } },
      ]);
    },

    async accountOfFleet(fleetId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: fleetAccountKey(fleetId) }),
      );
      return (Item?.account_id as string | undefined) ?? null;
    },

    fileRequest(request, seenStatus) {
      return conditionalTransaction(client, [
        {
          Put: {
            TableName: tableName,
            Item: toRequestItem(request),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: accountKey(request.accountId),
            UpdateExpression: 'SET production_access = :summary',
            ConditionExpression: 'production_access.#status = :seen',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':summary': toItemFields(summaryOf(request), SUMMARY_ATTRIBUTES),
              ':seen': seenStatus,
            },
          },
        },
      ]);
    },

    async getRequest(requestId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: requestKey(requestId), ConsistentRead: true }),
      );
      return Item ? fromRequestItem(Item) : null;
    },

    async listRequests(status, limit, cursor) {
      if (!cursors) throw new Error('createAccountStore needs a cursor codec to list requests');
      const scope = `production-access:${status}`;
      const input: FullQuery = {
        TableName: tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :status',
        ExpressionAttributeValues: { ':status': `PAR#${status}` },
        Limit: limit,
      };
      return queryCursorPage(client, cursors, scope, cursor, input, fromRequestItem);
    },

    decideRequest(decided, from, accountPlan) {
      const { pk: _pk, sk: _sk, id: _id, ...fields } = toRequestItem(decided);
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':from': from };
      const sets = Object.entries(fields).map(([name, value]) => {
        names[`#${name}`] = name;
        values[`:${name}`] = value;
        return `#${name} = :${name}`;
      });
      return conditionalTransaction(client, [
        {
          Update: {
            TableName: tableName,
            Key: requestKey(decided.id),
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression: '#status = :from',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: accountKey(decided.accountId),
            UpdateExpression: accountPlan
              ? 'SET production_access = :summary, plan_name = :plan'
              : 'SET production_access = :summary',
            ConditionExpression: 'production_access.request_id = :request',
            ExpressionAttributeValues: {
              ':summary': toItemFields(summaryOf(decided), SUMMARY_ATTRIBUTES),
              ':request': decided.id,
              ...(accountPlan ? { ':plan': accountPlan } : {}),
            },
          },
        },
      ]);
    },
  };
}
