import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { RoutingEngineName } from '../shared/geo/routing-engine-factory.ts';
import type { RoleGroup } from '../shared/platform/http/route-definition.ts';
import { TABLE_KEYS } from '../shared/store/table.ts';
import type { WorkerRoleGroup } from './worker-functions.ts';

/** A route's role group (the route table) or a worker's (lib/worker-functions.ts). */
export type ExecutionRoleGroup = RoleGroup | WorkerRoleGroup;

/** Partition-key prefixes only operators write (API keys, plans, operator tokens). */
export const OPERATOR_ONLY_KEY_PREFIXES = ['APIKEY#*', 'PLAN#*', 'OPERATOR#*'];
/**
 * In the control plane, owner key routes write keys; plans, operator tokens and the fuel tax rates
 * stay the operator API's.
 */
export const CONTROL_OPERATOR_ONLY_KEY_PREFIXES = ['PLAN#*', 'OPERATOR#*', 'FUELTAX#*'];

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
    this.grantsFor[group](role);
    this.roles.set(group, role);
    return role;
  }

  /**
   * What each group may do beyond writing its logs. A Record, so a new group in the route table or in
   * lib/worker-functions.ts does not compile until someone decides its access here.
   */
  private readonly grantsFor: Record<ExecutionRoleGroup, (role: Role) => void> = {
    // Discovery documents and the 404 fallback read nothing but their own bundle.
    public: () => {},
    // Owner key routes (/v1/keys, /v1/production-access) write keys and requests; plans and
    // operator tokens stay operator-only.
    api: (role) => {
      this.grantTableReadWrite(role);
      this.grantControlPlane(role, 'readWrite');
      this.grantRouting(role);
    },
    // Reads deliveries, endpoints and events, records attempts. Its queue, DLQ and Scheduler grants are
    // made beside those resources, in lib/webhooks.ts.
    // The operator API: the control plane (accounts, keys, plans, audit), this stage's table (the live
    // fleet created at approval), and writes to the sandbox stage's table (new companies' twins).
    admin: (role) => {
      this.grantTableReadWrite(role);
      this.grantControlPlane(role, 'operator');
      this.grantSandboxTwins(role);
    },
    'webhook-dispatcher': (role) => this.grantTableReadWrite(role),
    // Reads positions, trips and the station catalog (table items), writes guidance and events, and
    // routes like the API. Consuming vehicle-updates and fanning events out to the deliveries queue are
    // granted beside those queues (lib/ingest.ts).
    'guidance-worker': (role) => {
      this.grantTableReadWrite(role);
      // Plans (station results charged against the key's plan) and the fuel tax rates it prices with.
      this.grantControlPlane(role, 'read');
      this.grantRouting(role);
    },
    // Reads last-seen times, writes vehicle status and events; never routes. Its fan-out grant is made
    // in lib/jobs.ts.
    'offline-sweep': (role) => this.grantTableReadWrite(role),
    // Drives the sandbox twins through ingest and guidance (table, routing; the fuel tax rates it
    // prices with are in the control plane); its queue grants are made in lib/sandbox.ts.
    'sandbox-tick': (role) => {
      this.grantTableReadWrite(role);
      this.grantControlPlane(role, 'read');
      this.grantRouting(role);
    },
    // Reads the health counters and fleet items, writes snapshots; nothing else.
    'health-snapshot': (role) => this.grantTableReadWrite(role),
    // The station catalog's items only (pointer, last import, versions); the price feed bucket's
    // prefixes are granted beside the bucket (lib/price-feed.ts).
    'price-feed-import': (role) => this.grantStationCatalog(role, CATALOG_IMPORT_ACTIONS),
    // Reads the catalog pointer; nothing else.
    'price-freshness': (role) => this.grantStationCatalog(role, ['dynamodb:GetItem']),
  };

  /**
   * The station catalog's items of the stage's table and no other: every catalog key starts with
   * `CATALOG#` (shared/store/station-catalog.ts), so a buggy import cannot touch a fleet's data.
   */
  private grantStationCatalog(role: Role, actions: string[]): void {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions,
        resources: [this.props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [STATION_CATALOG_KEY_PREFIX] } },
      }),
    );
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

  private grantTableReadWrite(role: Role): void {
    this.props.table.grantReadWriteData(role);
    this.acknowledgeIndexes(role, this.props.table);
    // Keys, plans and operator tokens are written only by operators (npm run admin, the seed):
    // a function that is tricked or buggy must not be able to mint a key or raise a plan.
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: [
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:BatchWriteItem',
        ],
        resources: [this.props.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': OPERATOR_ONLY_KEY_PREFIXES } },
      }),
    );
  }

  /**
   * The control plane: `read` (plans, fuel tax rates), `readWrite` (owner key routes; no plans or operator tokens),
   * `operator` (the operator API: everything).
   */
  private grantControlPlane(role: Role, access: 'read' | 'readWrite' | 'operator'): void {
    const table = this.props.controlTable;
    grantOnTableAndIndexes(
      role,
      table,
      access === 'read' ? TABLE_READ_ACTIONS : [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
    );
    if (access !== 'readWrite') return;
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: [
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:BatchWriteItem',
        ],
        resources: [table.tableArn],
        conditions: {
          'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': CONTROL_OPERATOR_ONLY_KEY_PREFIXES },
        },
      }),
    );
  }

  /** New companies' sandbox twins: writes only, to the sandbox stage's table. */
  private grantSandboxTwins(role: Role): void {
    const table = this.props.sandboxTable;
    if (!table) throw new Error('The admin role group runs on production only, with the sandbox table');
    grantOnTableAndIndexes(role, table, TABLE_WRITE_ACTIONS);
  }

  private acknowledgeIndexes(role: Role, table: ITableV2): void {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${this.arnToken(table)}/index/*]`,
      reason: 'Queries go through the table’s GSIs; index/* covers exactly this table’s indexes.',
    });
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

  /** How cdk-nag names a table's ARN in a finding: `<LogicalId.Arn>` here, the import across stacks. */
  private arnToken(table: ITableV2): string {
    return `<${this.tableLogicalIdOf(table)}.Arn>`;
  }

  private tableLogicalIdOf(table: ITableV2): string {
    const resource = table.node.defaultChild;
    if (!resource || !('logicalId' in resource)) throw new Error('The table has no CloudFormation resource');
    return Stack.of(table).resolve(resource.logicalId) as string;
  }
}

/** Every station catalog item's partition key starts with this (shared/store/station-catalog.ts). */
export const STATION_CATALOG_KEY_PREFIX = 'CATALOG#*';
/** What the catalog store does (shared/store/station-catalog.ts): read the pointer and versions, write a version, move the pointer. */
const CATALOG_IMPORT_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:BatchWriteItem',
];

const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/**
 * A table of another stack (the control plane, the sandbox's), granted on the table and its
 * indexes by name: no `index/*` wildcard, whose acknowledgement would have to name an export.
 */
function grantOnTableAndIndexes(role: Role, table: ITableV2, actions: string[]): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions,
      resources: [
        table.tableArn,
        ...TABLE_KEYS.indexes.map((index) => `${table.tableArn}/index/${index.name}`),
      ],
    }),
  );
}

/** `webhook-dispatcher` → `WebhookDispatcherRole`. */
function roleId(group: ExecutionRoleGroup): string {
  const words = group.split('-').map((word) => `${word[0]?.toUpperCase()}${word.slice(1)}`);
  return `${words.join('')}Role`;
}
