import type { RoleGroup } from '#shared/platform/http/route-definition.ts';
import type { WorkerRoleGroup } from './worker-functions.ts';

/**
 * Which DynamoDB actions each role group's functions use, on which table, and on which items where it
 * matters: the one place lib/execution-roles.ts turns into IAM statements. Plain data (no aws-cdk-lib),
 * so the tests that tie it to the store modules (test/unit/table/table-access.test.ts) and to the
 * synthesized roles (test/cdk/least-privilege.test.ts) read it directly.
 *
 * A transaction needs the action of each of its items (a `Delete` item is `DeleteItem`), and
 * Powertools' idempotency records are a `PutItem`, `GetItem`, `UpdateItem` and, when the handler
 * fails, a `DeleteItem`. No store scans or describes a table, so no group gets `Scan` or
 * `DescribeTable`; no group gets `BatchWriteItem` but the price feed import.
 */

/** A route's role group (the route table) or a worker's (lib/worker-functions.ts). */
export type ExecutionRoleGroup = RoleGroup | WorkerRoleGroup;

export type DynamoAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'ConditionCheckItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'Scan'
  | 'DescribeTable';

/** The stage's own table, the control plane (keys, accounts, plans, audit), the sandbox stage's table. */
export type TableRole = 'stage' | 'control' | 'sandbox';

export interface TableGrant {
  actions: readonly DynamoAction[];
  /** Only items whose partition key matches one of these (IAM `StringLike`); absent: any item. */
  keys?: readonly string[];
  /** Only these attributes may be named in the request (`dynamodb:Attributes`); absent: any. */
  attributes?: readonly string[];
  /** Its queries use the table's own keys, never an index: no index ARN in the grant. */
  tableOnly?: true;
}

export type GroupTableAccess = Partial<Record<TableRole, readonly TableGrant[]>>;

export const WRITE_ACTIONS: readonly DynamoAction[] = [
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'ConditionCheckItem',
];

/**
 * The HTTP chain on every authenticated route (shared/wiring/http.ts) reads the key by its hash and
 * the plan by name (control plane), looks up a partner's grant on the acting fleet (GetItem) and
 * counts the request in the key's rate window (UpdateItem of a `RATE#` item, shared/plans/store/counters.ts)
 * and, for a metered route, in the account's month (`USAGE#`). The key routes act on no fleet and are
 * not metered, so their chain's one write to the stage table is the rate window.
 */
export const RATE_WINDOW_KEYS = ['RATE#*'] as const;

/**
 * The chain also stamps the key's `last_used_at` (at most hourly, shared/platform/http/authenticate.ts)
 * on the secret's item and the owner's listing item: that attribute of those items, and nothing else.
 */
export const KEY_USE_STAMP: TableGrant = {
  actions: ['UpdateItem'],
  keys: ['APIKEY#*', 'ACCOUNT#*'],
  attributes: ['pk', 'sk', 'last_used_at'],
};

/**
 * The control-plane items owner key routes write (shared/keys/store/api-key-*.ts,
 * shared/accounts/store/accounts.ts and audit-log.ts): a key's secret items, its listing under the account (and the account's
 * production-access summary, on the same partition), its id → account item, the production-access
 * request, and the audit trail. Plans (`PLAN#`), operator tokens (`OPERATOR#`) and the fuel tax rates
 * (`FUELTAX#`) are not among them.
 */
export const KEY_MANAGEMENT_KEYS = ['APIKEY#*', 'ACCOUNT#*', 'KEYID#*', 'PAR#*', 'AUDIT'] as const;

/** Every station catalog item's partition key starts with this (shared/stations/store/station-catalog.ts). */
export const STATION_CATALOG_KEY_PREFIX = 'CATALOG#*';

/**
 * Reads, writes and the offline sweep's conditional deletes on fleets' data: the API (which runs the
 * sweep in POST /v1/sandbox/advance), the sweep itself and the sandbox tick (which runs it too).
 */
const FLEET_DATA_WITH_SWEEP: readonly DynamoAction[] = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'ConditionCheckItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
];

export const TABLE_ACCESS: Record<ExecutionRoleGroup, GroupTableAccess> = {
  // Discovery documents, the sandbox page and the 404 fallback read nothing but their own bundle.
  public: {},

  // Every /v1 route but the key writers. Stage table: the resources' reads and writes. DeleteItem:
  // DELETE /v1/trips/{id} and a trip's end (trips.delete, trips.end), a trip's outbox entry once it
  // went out (trips.clearOutbox), DELETE /v1/webhooks/{id}, a partner dropping a fleet (fleets.deactivate),
  // a vehicle's changed external_ref or VIN (the old guard item), POST /v1/sandbox/reset
  // (simulations.deleteFleetItems), the offline sweep POST /v1/sandbox/advance runs (removeMarker), and
  // Powertools removing a failed request's idempotency record. ConditionCheckItem: that sweep's writes
  // while the tracking item is unchanged. Control plane: reads (the chain; GET /v1/keys, /v1/me,
  // /v1/production-access; the fuel tax rates stations are priced with) and the key-use stamp.
  api: {
    stage: [{ actions: FLEET_DATA_WITH_SWEEP }],
    control: [{ actions: ['GetItem', 'Query'] }, KEY_USE_STAMP],
  },

  // POST /v1/keys, /v1/keys/{id}/rotate, /v1/keys/{id}/revoke and /v1/production-access: a key's
  // items and the production-access request in the control plane (creating a live key checks the
  // account's approval in the same transaction: ConditionCheckItem), and the audit entry. On the stage
  // table only what their chain does there: count the request in the key's rate window.
  'key-management': {
    stage: [{ actions: ['UpdateItem'], keys: RATE_WINDOW_KEYS }],
    control: [
      { actions: ['GetItem', 'Query'] },
      { actions: ['PutItem', 'UpdateItem', 'ConditionCheckItem'], keys: KEY_MANAGEMENT_KEYS },
    ],
  },

  // The operator API. Control plane: accounts, keys, plans, fuel tax rates, production-access
  // decisions and the audit trail (no store deletes there). Stage table: the live fleet an approval
  // creates (fleets.putCompanyFleet) and the catalog's last import for GET /admin/v1/readiness. The
  // sandbox table: a new company's twin (fleet, simulation, three trucks), read first so a retry
  // adopts what an earlier attempt made (simulations.get, vehicles.idForExternalRef).
  admin: {
    stage: [{ actions: ['GetItem'] }, { actions: ['PutItem'], keys: ['FLEET#*'] }],
    control: [{ actions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem'] }],
    sandbox: [{ actions: ['GetItem', 'PutItem'] }],
  },

  // Deliveries, endpoints and the integration counters it records attempts in: reads, puts and
  // updates; it deletes nothing and reads no batch.
  'webhook-dispatcher': { stage: [{ actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] }] },

  // Positions, trips, routes, tracking and the station catalog; writes guidance, events, recommended
  // stops and fuelings; charges replanned station results to the fleet's account (accounts and plans
  // in the control plane) and prices with the fuel tax rates there. No deletes: a trip's end and the
  // outbox sweep are the API's and the offline sweep's.
  'guidance-worker': {
    stage: [{ actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'] }],
    control: [{ actions: ['GetItem', 'Query'] }],
  },

  // Marks silent vehicles offline (saveOffline and removeMarker, each conditioned on the tracking
  // item as read: ConditionCheckItem; removeMarker deletes the heartbeat marker) and retries trip
  // outboxes (trips.clearOutbox deletes the pending entry: DeleteItem).
  'offline-sweep': {
    stage: [{ actions: FLEET_DATA_WITH_SWEEP }],
  },

  // Drives the sandbox twins through ingest, guidance and the offline sweep (hence ConditionCheckItem
  // and DeleteItem, as the sweep's), prices with the fuel tax rates in the control plane.
  'sandbox-tick': {
    stage: [{ actions: FLEET_DATA_WITH_SWEEP }],
    control: [{ actions: ['GetItem', 'Query'] }],
  },

  // Queries the day's active fleets and each one's counters, endpoints and savings days; puts one
  // snapshot per fleet.
  'health-snapshot': { stage: [{ actions: ['Query', 'PutItem'] }] },

  // The station catalog's items only (pointer, last import, versions: shared/stations/store/station-catalog.ts),
  // so a buggy import cannot touch a fleet's data; stations are written 25 to a BatchWriteItem.
  'price-feed-import': {
    stage: [
      {
        actions: ['GetItem', 'Query', 'PutItem', 'BatchWriteItem'],
        keys: [STATION_CATALOG_KEY_PREFIX],
        tableOnly: true,
      },
    ],
  },

  // Reads the catalog pointer; nothing else.
  'price-freshness': {
    stage: [{ actions: ['GetItem'], keys: [STATION_CATALOG_KEY_PREFIX], tableOnly: true }],
  },
};
