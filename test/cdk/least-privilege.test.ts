import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_PRINCIPALS_CONTEXT } from '#lib/control-plane-stack.ts';
import { roleId } from '#lib/execution-roles.ts';
import { addStages, type FleetFuelStages } from '#lib/fleet-fuel-app.ts';
import type { FleetFuelStack } from '#lib/fleet-fuel-stack.ts';
import {
  type ExecutionRoleGroup,
  TABLE_ACCESS,
  type TableGrant,
  type TableRole,
  WRITE_ACTIONS,
} from '#lib/table-access.ts';
import { functionEntries, repoRoot } from '#scripts/bundle-functions.ts';
import { adminRouteList } from '#shared/admin/api/operations.ts';
import { fallbackOperation, servedRouteList } from '#shared/api/route-table.ts';
import { TEST_OPERATOR } from './synthesize.ts';

/**
 * What each execution role may do in DynamoDB, on the synthesized roles. Roles and their policies
 * stay in the stage stack; which role a route's function runs with is checked on the construct tree,
 * wherever the function's resources land.
 */

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };
type Resource = { Type: string; Properties: Record<string, unknown> };

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const dynamoActions = (statement: Statement) =>
  asList(statement.Action).filter((action) => action.startsWith('dynamodb:'));
const writes = WRITE_ACTIONS.map((action) => `dynamodb:${action}`);

// The whole app as `cdk synth` composes it, with a placeholder bundle per function: the roles are
// configuration, not code (test/cdk/stacks.test.ts synthesizes the real bundles).
let functionsDir: string;
let app: App;
let stages: FleetFuelStages;

beforeAll(() => {
  functionsDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-iam-'));
  for (const { name } of functionEntries()) {
    mkdirSync(join(functionsDir, name));
    writeFileSync(join(functionsDir, name, 'index.mjs'), 'export const handler = async () => ({});\n');
  }
  const { context } = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  app = new App({ context: { ...context, [OPERATOR_PRINCIPALS_CONTEXT]: TEST_OPERATOR } });
  stages = addStages(app, { functionsDir });
}, 120_000);

afterAll(() => rmSync(functionsDir, { recursive: true, force: true }));

/** Every statement of every IAM policy, role and managed policy of every stack (nested ones included). */
function everyStatement(): Statement[] {
  const stacks = app.node.findAll().filter((construct): construct is Stack => Stack.isStack(construct));
  const found: Statement[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'Statement') found.push(...asList(inner as Statement | Statement[]));
        else walk(inner);
      }
    }
  };
  for (const stack of stacks) walk(Template.fromStack(stack).toJSON().Resources);
  return found;
}

describe.each(['prod', 'sandbox'] as const)('the %s stage’s execution roles', (stageName) => {
  const stack = (): FleetFuelStack => stages[stageName];
  const template = () => Template.fromStack(stack());
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stack().getLogicalId(construct.node.defaultChild as CfnElement);
  /** The groups that have a role on this stage, without creating one (roleFor would). */
  const groupsInUse = () =>
    (Object.keys(TABLE_ACCESS) as ExecutionRoleGroup[]).filter((group) =>
      stack().roles.node.tryFindChild(roleId(group)),
    );
  const roleOf = (group: ExecutionRoleGroup) => {
    const role = stack().roles.node.tryFindChild(roleId(group)) as Role | undefined;
    if (!role) throw new Error(`No ${group} role on ${stageName}`);
    return role;
  };
  const statementsOf = (group: ExecutionRoleGroup): Statement[] => {
    const id = logicalId(roleOf(group));
    return Object.values(template().findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${id}"`))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  };
  /** Which table a statement's resources name: this stage's, the control plane's, the sandbox's. */
  const tableOf = (statement: Statement): TableRole => {
    const text = JSON.stringify(statement.Resource);
    if (text.includes(`"${logicalId(stack().data.table)}"`)) return 'stage';
    if (text.includes('FleetFuel-control')) return 'control';
    if (text.includes('SsmParameterValuefleetfuelsandboxtablename')) return 'sandbox';
    throw new Error(`A DynamoDB statement on an unknown table: ${text}`);
  };
  const dynamoStatementsOf = (group: ExecutionRoleGroup, table?: TableRole) =>
    statementsOf(group).filter(
      (statement) => dynamoActions(statement).length > 0 && (!table || tableOf(statement) === table),
    );

  it('gives each role in use exactly the DynamoDB grants lib/table-access.ts lists for its group', () => {
    const inUse = groupsInUse();
    expect(inUse).toEqual(expect.arrayContaining(['public', 'api', 'key-management', 'offline-sweep']));
    const shapeOf = (table: TableRole, grant: TableGrant) => ({
      table,
      actions: grant.actions.map((action) => `dynamodb:${action}`).sort(),
      keys: grant.keys ?? null,
      attributes: grant.attributes ?? null,
    });
    for (const group of inUse) {
      const expected = Object.entries(TABLE_ACCESS[group]).flatMap(([table, grants]) =>
        grants.map((grant) => shapeOf(table as TableRole, grant)),
      );
      const actual = dynamoStatementsOf(group).map((statement) => {
        expect(statement.Effect, group).toBe('Allow');
        const condition = (statement.Condition ?? {}) as Record<string, Record<string, string[]>>;
        return {
          table: tableOf(statement),
          actions: dynamoActions(statement).sort(),
          keys: condition['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? null,
          attributes: condition['ForAllValues:StringEquals']?.['dynamodb:Attributes'] ?? null,
        };
      });
      const order = (shape: { table: string; actions: string[] }) => `${shape.table} ${shape.actions.join()}`;
      expect(
        actual.sort((a, b) => order(a).localeCompare(order(b))),
        group,
      ).toEqual(expected.sort((a, b) => order(a).localeCompare(order(b))));
    }
  });

  it('names the indexes one by one, for the grants that query, and never index/*', () => {
    for (const group of groupsInUse()) {
      for (const statement of dynamoStatementsOf(group)) {
        const text = JSON.stringify(statement.Resource);
        expect(text, group).not.toContain('index/*');
        if (!dynamoActions(statement).includes('dynamodb:Query'))
          expect(text, group).not.toContain('/index/');
      }
    }
  });

  it('lets only the groups that reach a deleting store delete, and none on the control plane', () => {
    const deleting = groupsInUse().filter((group) =>
      dynamoStatementsOf(group).some((statement) => dynamoActions(statement).includes('dynamodb:DeleteItem')),
    );
    expect(deleting.sort()).toEqual(
      (stageName === 'sandbox' ? ['api', 'offline-sweep', 'sandbox-tick'] : ['api', 'offline-sweep']).sort(),
    );
    for (const group of groupsInUse()) {
      for (const statement of dynamoStatementsOf(group, 'control')) {
        expect(dynamoActions(statement), group).not.toContain('dynamodb:DeleteItem');
      }
    }
  });

  it('lets the api role write nothing on the control plane but a key’s last-used stamp', () => {
    const controlWrites = dynamoStatementsOf('api', 'control').filter((statement) =>
      dynamoActions(statement).some((action) => writes.includes(action)),
    );
    expect(controlWrites).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: expect.anything(),
        Condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*', 'ACCOUNT#*'] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'last_used_at'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      },
    ]);
    expect(dynamoStatementsOf('api', 'sandbox')).toEqual([]);
  });

  it('lets key management write only the key, account, request and audit partitions of the control plane (IAM narrows by partition: the account item itself included), and only its rate window here', () => {
    const control = dynamoStatementsOf('key-management', 'control');
    const controlWrites = control.filter((statement) =>
      dynamoActions(statement).some((action) => writes.includes(action)),
    );
    expect(controlWrites).toHaveLength(1);
    expect(controlWrites[0]?.Condition).toEqual({
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': ['APIKEY#*', 'ACCOUNT#*', 'KEYID#*', 'PAR#*', 'AUDIT'],
      },
    });
    expect(dynamoActions(controlWrites[0] as Statement).sort()).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect(JSON.stringify(control)).not.toMatch(/PLAN#|OPERATOR#|FUELTAX#/);

    expect(dynamoStatementsOf('key-management', 'stage')).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: expect.anything(),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      },
    ]);
    // It sends to no queue and routes nothing.
    expect(JSON.stringify(statementsOf('key-management'))).not.toMatch(/sqs:|geo-routes:/);
  });

  it('runs each route’s function with its group’s role (the key writers with key-management)', () => {
    const routes = [...servedRouteList, fallbackOperation, ...(stageName === 'prod' ? adminRouteList : [])];
    for (const route of routes) {
      const fn = stack().api.functions.get(route.operationId);
      expect(fn, route.operationId).toBeDefined();
      expect(fn?.function.role, route.operationId).toBe(stack().roles.roleFor(route.role));
    }
    const keyWriters = servedRouteList.filter((route) => route.role === 'key-management');
    expect(keyWriters.map((route) => route.operationId).sort()).toEqual(
      ['createKey', 'requestProductionAccess', 'revokeKey', 'rotateKey'].sort(),
    );
    // The Keys routes that only read stay with `api`, which cannot write a key.
    for (const route of servedRouteList.filter((r) => r.tags[0] === 'Keys' && r.method === 'GET')) {
      expect(route.role, route.operationId).toBe('api');
    }
  });

  if (stageName === 'prod') {
    it('lets the operator API read and put twins in the sandbox table, and change nothing else there', () => {
      const sandbox = dynamoStatementsOf('admin', 'sandbox').flatMap(dynamoActions).sort();
      expect(sandbox).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
      const stage = dynamoStatementsOf('admin', 'stage');
      const stageWrites = stage.filter((statement) =>
        dynamoActions(statement).some((action) => writes.includes(action)),
      );
      expect(stageWrites.map((statement) => statement.Condition)).toEqual([
        { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FLEET#*'] } },
      ]);
    });
  }
});

describe('across every stack', () => {
  it('grants no DynamoDB wildcard, Scan or DescribeTable to anyone', () => {
    const actions = everyStatement()
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap((statement) => asList(statement.Action ?? []))
      .filter((action) => typeof action === 'string' && action.startsWith('dynamodb:'));
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions).not.toContain('dynamodb:DescribeTable');
  });
});
