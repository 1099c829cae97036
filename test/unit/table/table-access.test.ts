import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DynamoAction,
  type ExecutionRoleGroup,
  KEY_MANAGEMENT_KEYS,
  KEY_USE_STAMP,
  RATE_WINDOW_KEYS,
  TABLE_ACCESS,
} from '#lib/table-access.ts';
import { repoRoot } from '#scripts/bundle-functions.ts';
import { accountKey } from '#shared/accounts/store/accounts.ts';
import { servedRouteList } from '#shared/api/route-table.ts';
import { fleetKey, grantKey } from '#shared/fleets/store/fleets.ts';
import { accountKeyKey, apiKeyKey, keyIdKey } from '#shared/keys/store/api-keys.ts';
import { rateWindowKey, usageKey } from '#shared/plans/store/counters.ts';
import { planKey } from '#shared/plans/store/plans.ts';

/**
 * Ties lib/table-access.ts (what the roles may do) to the code that runs under them: the DynamoDB
 * requests written in the service's own code (shared/, functions/), found by the command classes and
 * transaction items they use. A store that starts scanning, or a new kind of request no role may
 * make, fails here before a deploy finds it.
 */

/** A document-client or low-level command class, and the action IAM checks for it. */
const COMMAND_ACTIONS: Record<string, DynamoAction> = {
  GetCommand: 'GetItem',
  GetItemCommand: 'GetItem',
  BatchGetCommand: 'BatchGetItem',
  BatchGetItemCommand: 'BatchGetItem',
  QueryCommand: 'Query',
  PutCommand: 'PutItem',
  PutItemCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  DeleteItemCommand: 'DeleteItem',
  BatchWriteCommand: 'BatchWriteItem',
  BatchWriteItemCommand: 'BatchWriteItem',
  ScanCommand: 'Scan',
  DescribeTableCommand: 'DescribeTable',
};
/** Requests whose action depends on their items (TransactWriteItems) or that this test cannot map. */
const UNMAPPED_COMMANDS = [
  'TransactGetCommand',
  'TransactGetItemsCommand',
  'ExecuteStatementCommand',
  'BatchExecuteStatementCommand',
  'ExecuteTransactionCommand',
];
/** A TransactWriteItems item, and the action IAM checks for it. */
const TRANSACTION_ITEM_ACTIONS: Record<string, DynamoAction> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)));
}

/** The actions each file's requests need, by the commands it constructs and the transaction items it writes. */
function actionsByFile(): Map<string, Set<DynamoAction>> {
  const found = new Map<string, Set<DynamoAction>>();
  for (const file of [...sourceFiles('shared'), ...sourceFiles('functions')]) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    const actions = new Set<DynamoAction>();
    for (const [, command] of text.matchAll(/new\s+(\w+Command)\s*\(/g)) {
      if (UNMAPPED_COMMANDS.includes(command as string)) {
        throw new Error(
          `${file} sends ${command}: map it to its IAM actions in this test and lib/table-access.ts`,
        );
      }
      const action = COMMAND_ACTIONS[command as string];
      if (action) actions.add(action);
    }
    // Transaction items, wherever they are built (a helper may build them for another's transaction).
    for (const [, item] of text.matchAll(/\b(Put|Update|Delete|ConditionCheck)\s*:\s*(?:\{|\w+\()/g)) {
      actions.add(TRANSACTION_ITEM_ACTIONS[item as string] as DynamoAction);
    }
    if (actions.size > 0) found.set(file, actions);
  }
  return found;
}

const grantedToSomeGroup = new Set(
  Object.values(TABLE_ACCESS).flatMap((tables) =>
    Object.values(tables).flatMap((grants) => grants.flatMap((grant) => grant.actions)),
  ),
);
const groupsGranted = (action: DynamoAction) =>
  Object.entries(TABLE_ACCESS)
    .filter(([, tables]) =>
      Object.values(tables).some((grants) => grants.some((g) => g.actions.includes(action))),
    )
    .map(([group]) => group)
    .sort();

describe('lib/table-access.ts against the code', () => {
  const used = actionsByFile();
  const everyUsedAction = new Set([...used.values()].flatMap((actions) => [...actions]));

  it('finds the requests where they are made: only store modules build DynamoDB commands', () => {
    // The idempotency records are Powertools' (shared/platform/http/idempotency.ts hands it the
    // client); everything else goes through a feature's store or the table kit (batch reads, transactions).
    expect([...used.keys()].filter((file) => !/^shared\/([a-z-]+\/store|table)\//.test(file))).toEqual([]);
    // The key store is composed of one module per access pattern (shared/keys/store/api-key-*.ts).
    const keyStoreActions = [...used]
      .filter(([file]) => /^shared\/keys\/store\/api-key(s|-[a-z-]+)\.ts$/.test(file))
      .flatMap(([, actions]) => [...actions]);
    expect(new Set(keyStoreActions)).toEqual(
      new Set(['GetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem']),
    );
  });

  it('grants every action some code uses to at least one role group', () => {
    const ungranted = [...used].flatMap(([file, actions]) =>
      [...actions].filter((action) => !grantedToSomeGroup.has(action)).map((action) => `${file}: ${action}`),
    );
    expect(ungranted).toEqual([]);
  });

  it('grants no action that no code uses: no Scan, no DescribeTable', () => {
    // Powertools' idempotency layer (not in shared/) uses GetItem, PutItem, UpdateItem, DeleteItem.
    const idempotency: DynamoAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'];
    const unused = [...grantedToSomeGroup].filter(
      (action) => !everyUsedAction.has(action) && !idempotency.includes(action),
    );
    expect(unused).toEqual([]);
    expect(grantedToSomeGroup.has('Scan')).toBe(false);
    expect(grantedToSomeGroup.has('DescribeTable')).toBe(false);
  });

  it('knows every store that deletes, and grants DeleteItem only to the groups that reach one', () => {
    // Each of these is named in lib/table-access.ts where a group needs it. A store that starts
    // deleting must be checked against the groups that reach it, then added here.
    const deleting = [...used].filter(([, actions]) => actions.has('DeleteItem')).map(([file]) => file);
    expect(deleting.sort()).toEqual(
      [
        'shared/fleets/store/fleets.ts', // deactivate: a partner drops a fleet (DELETE /v1/fleets/{id})
        'shared/sandbox/store/sandbox-simulations.ts', // deleteFleetItems: POST /v1/sandbox/reset
        'shared/trips/store/trip-writes.ts', // delete: a planned trip
        'shared/trips/store/trip-active-guard.ts', // end: the active-trip guard
        'shared/trips/store/trip-outbox.ts', // clearOutbox: the pending outbox entry
        'shared/tracking/store/vehicle-tracking-sweep.ts', // removeMarker: the offline sweep
        'shared/vehicles/store/vehicles.ts', // the guard item of a changed external_ref or VIN
        'shared/webhooks/store/webhook-endpoints.ts', // delete: DELETE /v1/webhooks/{id}
      ].sort(),
    );
    expect(groupsGranted('DeleteItem')).toEqual(['api', 'offline-sweep', 'sandbox-tick']);
    expect(groupsGranted('BatchWriteItem')).toEqual(['price-feed-import']);
  });

  it('lets key management write exactly the control-plane items the key stores write', () => {
    const patterns = KEY_MANAGEMENT_KEYS.map((key) => new RegExp(`^${key.replace('*', '.*')}$`));
    const matches = (pk: string) => patterns.some((pattern) => pattern.test(pk));
    for (const pk of [
      apiKeyKey('hash').pk,
      accountKeyKey('acc_1', 'key_1').pk,
      keyIdKey('key_1').pk,
      accountKey('acc_1').pk,
    ]) {
      expect(matches(pk), pk).toBe(true);
    }
    // The production-access request and the audit entry: keys private to their stores.
    expect(readFileSync(join(repoRoot, 'shared/accounts/store/accounts.ts'), 'utf8')).toContain('pk: `PAR#');
    expect(readFileSync(join(repoRoot, 'shared/accounts/store/audit-log.ts'), 'utf8')).toContain(
      "pk: 'AUDIT',",
    );
    // Plans, operator tokens and the fuel tax rates stay the operator API's.
    for (const pk of ['PLAN#pro', 'OPERATOR#hash', 'FUELTAX']) expect(matches(pk), pk).toBe(false);
  });

  it('narrows the key-use stamp and the key routes’ rate window to their items', () => {
    const stamp = KEY_USE_STAMP.keys?.map((key) => new RegExp(`^${key.replace('*', '.*')}$`)) ?? [];
    expect(stamp.some((pattern) => pattern.test(apiKeyKey('hash').pk))).toBe(true);
    expect(stamp.some((pattern) => pattern.test(accountKeyKey('acc_1', 'key_1').pk))).toBe(true);
    expect(KEY_USE_STAMP.attributes).toContain('last_used_at');
    expect(readFileSync(join(repoRoot, 'shared/keys/store/api-key-authentication.ts'), 'utf8')).toContain(
      "UpdateExpression: 'SET last_used_at = :now'",
    );
    const rate = new RegExp(`^${RATE_WINDOW_KEYS[0].replace('*', '.*')}$`);
    expect(rate.test(rateWindowKey('key_1', 60).pk)).toBe(true);
  });

  it('lets the operator API put only into fleet partitions (FLEET#…, where an approval puts the live fleet): IAM narrows by partition, not by item', () => {
    const puts = TABLE_ACCESS.admin.stage?.filter((grant) => grant.actions.includes('PutItem')) ?? [];
    expect(puts.map((grant) => grant.keys)).toEqual([['FLEET#*']]);
    // fleets.putCompanyFleet writes the fleet's own item (keyed by fleetKey), nothing beside it.
    expect(readFileSync(join(repoRoot, 'shared/fleets/store/fleets.ts'), 'utf8')).toContain(
      'new PutCommand({ TableName: tableName, Item: toFleetItem(fleet) })',
    );
    expect(fleetKey('flt_1').pk).toBe('FLEET#flt_1');
  });
});

/** Whether a group's grants on a table allow an action on an item of that partition key. */
function allows(group: ExecutionRoleGroup, table: 'stage' | 'control', action: DynamoAction, pk: string) {
  return (TABLE_ACCESS[group][table] ?? []).some(
    (grant) =>
      grant.actions.includes(action) &&
      (!grant.keys || grant.keys.some((key) => new RegExp(`^${key.replace('*', '.*')}$`).test(pk))),
  );
}

/**
 * The HTTP chain (shared/platform/http/chain.ts) runs on every route a key guards, before the
 * handler: whatever a route's handler does, its role must let the chain run, or every call would
 * answer 503 auth_unavailable once deployed (the local stack has no IAM to catch it).
 */
describe('every route a key guards runs with a role the key chain can run under', () => {
  const guarded = servedRouteList.filter(
    (route) => route.access !== 'anonymous' && route.access !== 'operator',
  );

  it.each(guarded.map((route) => [route.operationId, route] as const))('%s', (_, route) => {
    const chain = {
      'read the key (control plane)': allows(route.role, 'control', 'GetItem', apiKeyKey('hash').pk),
      'stamp its last use': allows(route.role, 'control', 'UpdateItem', apiKeyKey('hash').pk),
      'read the plan': allows(route.role, 'control', 'GetItem', planKey('starter').pk),
      'count the rate window': allows(route.role, 'stage', 'UpdateItem', rateWindowKey('key_1', 60).pk),
      ...(route.family === null
        ? {}
        : { 'meter the month': allows(route.role, 'stage', 'UpdateItem', usageKey('acc_1', '2026-11').pk) }),
      ...(route.access === 'key' || route.access === 'partner'
        ? {}
        : {
            'check a partner’s grant': allows(route.role, 'stage', 'GetItem', grantKey('par_1', 'flt_1').pk),
          }),
    };
    expect(
      Object.entries(chain)
        .filter(([, allowed]) => !allowed)
        .map(([step]) => step),
    ).toEqual([]);
  });

  it('covers the routes that need it', () => {
    expect(guarded.length).toBeGreaterThan(50);
    expect(guarded.map((route) => route.operationId)).toContain('listEventTypes');
  });
});
