import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { RoutingEngineName } from '#shared/geo/routing-engine-factory.ts';
import { TABLE_KEYS } from '#shared/table/table.ts';
import { type ExecutionRoleGroup, TABLE_ACCESS, type TableGrant, type TableRole } from './table-access.ts';

export type { ExecutionRoleGroup } from './table-access.ts';

export interface ExecutionRolesProps {
  table: ITableV2;
  /** The control plane (lib/control-plane-stack.ts): accounts, keys, plans, audit. */
  controlTable: ITableV2;
  /** Production only: the sandbox stage's table, where the operator API writes sandbox twins. */
  sandboxTable?: ITableV2;
  /** Every function's log group name starts with this; the roles may write there and nowhere else. */
  functionLogPrefix: string;
  routingEngine: RoutingEngineName;
}

/**
 * One IAM role per role group, created on first use. Functions that need the same access share a role,
 * so the stack holds a handful of roles instead of one per function, and each grant is written once.
 */
export class ExecutionRoles extends Construct {
  private readonly roles = new Map<ExecutionRoleGroup, Role>();
  private readonly props: ExecutionRolesProps;

  constructor(scope: Construct, id: string, props: ExecutionRolesProps) {
    super(scope, id);
    this.props = props;
  }

  roleFor(group: ExecutionRoleGroup): Role {
    const existing = this.roles.get(group);
    if (existing) return existing;
    const role = new Role(this, roleId(group), {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Fleet fuel functions, role group '${group}'`,
    });
    this.grantLogWriting(role);
    this.grantTableAccess(role, group);
    if (this.routesFor[group]) this.grantRouting(role);
    this.roles.set(group, role);
    return role;
  }

  /**
   * Which groups plan truck routes (Amazon Location), beside their logs and their DynamoDB access
   * (lib/table-access.ts). A Record, so a new group in the route table or in lib/worker-functions.ts
   * does not compile until someone decides. Queue, bucket and Scheduler grants are made beside those
   * resources (lib/ingest.ts, lib/webhooks.ts, lib/jobs.ts, lib/sandbox.ts, lib/price-feed.ts).
   */
  private readonly routesFor: Record<ExecutionRoleGroup, boolean> = {
    public: false,
    api: true,
    'key-management': false,
    admin: false,
    'webhook-dispatcher': false,
    'guidance-worker': true,
    'offline-sweep': false,
    'sandbox-tick': true,
    'health-snapshot': false,
    'price-feed-import': false,
    'price-freshness': false,
  };

  /** One statement per grant of lib/table-access.ts, on the table and, for queries, its indexes by name. */
  private grantTableAccess(role: Role, group: ExecutionRoleGroup): void {
    for (const [tableRole, grants] of Object.entries(TABLE_ACCESS[group]) as [TableRole, TableGrant[]][]) {
      const table = this.tableOf(tableRole, group);
      for (const grant of grants) role.addToPrincipalPolicy(statementFor(table, grant));
    }
  }

  private tableOf(tableRole: TableRole, group: ExecutionRoleGroup): ITableV2 {
    if (tableRole === 'stage') return this.props.table;
    if (tableRole === 'control') return this.props.controlTable;
    if (!this.props.sandboxTable) {
      throw new Error(
        `The ${group} role group writes the sandbox table: it runs on production only, with that table`,
      );
    }
    return this.props.sandboxTable;
  }

  /** Amazon Location's truck routing, only for a stage configured to route with it. */
  private grantRouting(role: Role): void {
    if (this.props.routingEngine !== 'amazon-location') return;
    // Amazon Location's truck routing is a provider resource with an empty account field.
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['geo-routes:CalculateRoutes'],
        resources: [
          Stack.of(this).formatArn({
            service: 'geo-routes',
            account: '',
            resource: 'provider',
            resourceName: 'default',
            arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          }),
        ],
      }),
    );
  }

  /**
   * In place of AWSLambdaBasicExecutionRole (create and write any log group in the account): the stack
   * creates the log groups, so the roles need only write streams, and only in this stage's function logs.
   */
  private grantLogWriting(role: Role): void {
    const logGroups = Stack.of(this).formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: `${this.props.functionLogPrefix}/*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroups] }),
    );
    Validations.of(role).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:${this.props.functionLogPrefix}/*]`,
        reason:
          'Lambda names log streams at run time; the prefix limits writes to this stage’s function log groups.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords take no resource ARN.',
      },
    );
  }
}

/**
 * A grant as a statement. Items are narrowed by partition key (`dynamodb:LeadingKeys`; for a
 * transaction IAM checks each item's action and key) and, for the key-use stamp, by attribute.
 */
function statementFor(table: ITableV2, grant: TableGrant): PolicyStatement {
  const conditions: Record<string, Record<string, unknown>> = {};
  if (grant.keys) conditions['ForAllValues:StringLike'] = { 'dynamodb:LeadingKeys': [...grant.keys] };
  if (grant.attributes) {
    conditions['ForAllValues:StringEquals'] = { 'dynamodb:Attributes': [...grant.attributes] };
    // No ALL_OLD / ALL_NEW: the stamp may not read back attributes it was not given.
    conditions.StringEqualsIfExists = { 'dynamodb:ReturnValues': ['NONE'] };
  }
  return new PolicyStatement({
    actions: grant.actions.map((action) => `dynamodb:${action}`),
    resources: [
      table.tableArn,
      // Queries go through the GSIs, named one by one (shared/table/table.ts): no `index/*` wildcard.
      ...(grant.actions.includes('Query') && !grant.tableOnly
        ? TABLE_KEYS.indexes.map((index) => `${table.tableArn}/index/${index.name}`)
        : []),
    ],
    ...(Object.keys(conditions).length > 0 ? { conditions } : {}),
  });
}

/** `webhook-dispatcher` → `WebhookDispatcherRole`: the role's construct id. */
export function roleId(group: ExecutionRoleGroup): string {
  const words = group.split('-').map((word) => `${word[0]?.toUpperCase()}${word.slice(1)}`);
  return `${words.join('')}Role`;
}
