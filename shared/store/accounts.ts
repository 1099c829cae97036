import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Account,
  NO_PRODUCTION_ACCESS,
  type ProductionAccessSummary,
} from '../domain/accounts/account.ts';
import type { ProductionAccessRequest } from '../domain/accounts/production-access.ts';
import type { CursorCodec, Page } from './cursor.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { GSI1 } from './table.ts';
import { isConditionFailure } from './transactions.ts';

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

interface AccountItem {
  id: string;
  type: Account['type'];
  name: string;
  contact_email: string | null;
  timezone: string | null;
  plan_name: string;
  live_fleet_id: string | null;
  sandbox_fleet_id: string | null;
  production_access: {
    status: string;
    request_id: string | null;
    reason: string | null;
    decided_at: string | null;
  };
  created_at: string;
}

const toSummaryItem = (summary: ProductionAccessSummary): AccountItem['production_access'] => ({
  status: summary.status,
  request_id: summary.requestId,
  reason: summary.reason,
  decided_at: summary.decidedAt,
});

function fromAccountItem(item: Record<string, unknown>): Account {
  const i = item as unknown as AccountItem;
  const access = i.production_access;
  return {
    id: i.id,
    type: i.type,
    name: i.name,
    contactEmail: i.contact_email ?? null,
    timezone: i.timezone ?? null,
    planName: i.plan_name,
    liveFleetId: i.live_fleet_id ?? null,
    sandboxFleetId: i.sandbox_fleet_id ?? null,
    productionAccess: access
      ? {
          status: access.status as ProductionAccessSummary['status'],
          requestId: access.request_id ?? null,
          reason: access.reason ?? null,
          decidedAt: access.decided_at ?? null,
        }
      : NO_PRODUCTION_ACCESS,
    createdAt: i.created_at,
  };
}

function toRequestItem(request: ProductionAccessRequest) {
  return {
    ...requestKey(request.id),
    ...requestIndex(request),
    id: request.id,
    account_id: request.accountId,
    status: request.status,
    use_case: request.useCase,
    expected_vehicles: request.expectedVehicles,
    contact_email: request.contactEmail,
    requested_at: request.requestedAt,
    requested_by: request.requestedBy,
    decided_at: request.decidedAt,
    decided_by: request.decidedBy,
    plan_name: request.planName,
    reason: request.reason,
  };
}

function fromRequestItem(item: Record<string, unknown>): ProductionAccessRequest {
  return {
    id: item.id as string,
    accountId: item.account_id as string,
    status: item.status as ProductionAccessRequest['status'],
    useCase: item.use_case as string,
    expectedVehicles: item.expected_vehicles as number,
    contactEmail: item.contact_email as string,
    requestedAt: item.requested_at as string,
    requestedBy: item.requested_by as string,
    decidedAt: (item.decided_at as string | null) ?? null,
    decidedBy: (item.decided_by as string | null) ?? null,
    planName: (item.plan_name as string | null) ?? null,
    reason: (item.reason as string | null) ?? null,
  };
}

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
  const conditional = async (write: () => Promise<unknown>) => {
    try {
      await write();
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  };
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
      const item: AccountItem = {
        id: account.id,
        type: account.type,
        name: account.name,
        contact_email: account.contactEmail,
        timezone: account.timezone,
        plan_name: account.planName,
        live_fleet_id: account.liveFleetId,
        sandbox_fleet_id: account.sandboxFleetId,
        production_access: toSummaryItem(account.productionAccess),
        created_at: account.createdAt,
      };
      const fleetIds = [account.liveFleetId, account.sandboxFleetId].filter(
        (id): id is string => id !== null,
      );
      return conditional(() =>
        client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...accountKey(account.id),
                    ...item,
                    gsi1pk: `ACCOUNTS#${account.type}`,
                    gsi1sk: account.createdAt,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              ...fleetIds.map((fleetId) => ({
                Put: { TableName: tableName, Item: { ...fleetAccountKey(fleetId), account_id: account.id } },
              })),
            ],
          }),
        ),
      );
    },

    setPlan(accountId, planName) {
      return conditional(() =>
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
      return conditional(() =>
        client.send(
          new TransactWriteCommand({
            TransactItems: [
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
            ],
          }),
        ),
      );
    },

    async accountOfFleet(fleetId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: fleetAccountKey(fleetId) }),
      );
      return (Item?.account_id as string | undefined) ?? null;
    },

    fileRequest(request, seenStatus) {
      return conditional(() =>
        client.send(
          new TransactWriteCommand({
            TransactItems: [
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
                    ':summary': toSummaryItem(summaryOf(request)),
                    ':seen': seenStatus,
                  },
                },
              },
            ],
          }),
        ),
      );
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
      const { Items = [], LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: GSI1,
          KeyConditionExpression: 'gsi1pk = :status',
          ExpressionAttributeValues: { ':status': `PAR#${status}` },
          Limit: limit,
          ExclusiveStartKey: cursor ? cursors.decode(scope, cursor) : undefined,
        }),
      );
      return {
        data: Items.map(fromRequestItem),
        next_cursor: LastEvaluatedKey ? cursors.encode(scope, LastEvaluatedKey) : null,
      };
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
      return conditional(() =>
        client.send(
          new TransactWriteCommand({
            TransactItems: [
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
                    ':summary': toSummaryItem(summaryOf(decided)),
                    ':request': decided.id,
                    ...(accountPlan ? { ':plan': accountPlan } : {}),
                  },
                },
              },
            ],
          }),
        ),
      );
    },
  };
}
