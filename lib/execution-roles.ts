import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { RoleGroup } from '../shared/platform/http/route-definition.ts';
import type { WorkerRoleGroup } from './worker-functions.ts';

/** A route's role group (the route table) or a worker's (lib/worker-functions.ts). */
export type ExecutionRoleGroup = RoleGroup | WorkerRoleGroup;

/** Partition-key prefixes only operators write (API keys, plans, operator tokens). */
export const OPERATOR_ONLY_KEY_PREFIXES = ['APIKEY#*', 'PLAN#*', 'OPERATOR#*'];

export interface ExecutionRolesProps {
  table: ITableV2;
  /** Every function's log group name starts with this; the roles may write there and nowhere else. */
  functionLogPrefix: string;
  routingEngine: 'embedded' | 'amazon-location';
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
    api: (role) => {
      this.grantTableReadWrite(role);
      this.grantRouting(role);
    },
    // Reads deliveries, endpoints and events, records attempts. Its queue, DLQ and Scheduler grants are
    // made beside those resources, in lib/webhooks.ts.
    // The operator API: the control plane (accounts, keys, plans, audit), and the sandbox stage's
    // table for new companies' twins; granted in lib/fleet-fuel-stack.ts, where both tables are known.
    admin: () => {},
    'webhook-dispatcher': (role) => this.grantTableReadWrite(role),
    // Reads positions, trips and the station catalog (table items), writes guidance and events, and
    // routes like the API. Consuming vehicle-updates and fanning events out to the deliveries queue are
    // granted beside those queues (lib/ingest.ts).
    'guidance-worker': (role) => {
      this.grantTableReadWrite(role);
      this.grantRouting(role);
    },
    // Reads last-seen times, writes vehicle status and events; never routes. Its fan-out grant is made
    // in lib/jobs.ts.
    'offline-sweep': (role) => this.grantTableReadWrite(role),
  };

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
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.tableLogicalId()}.Arn>/index/*]`,
      reason: 'Queries go through the table’s GSIs; index/* covers exactly this table’s indexes.',
    });
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

  private tableLogicalId(): string {
    const table = this.props.table.node.defaultChild;
    if (!table || !('logicalId' in table)) throw new Error('The table has no CloudFormation resource');
    return Stack.of(this).resolve(table.logicalId) as string;
  }
}

/** `webhook-dispatcher` → `WebhookDispatcherRole`. */
function roleId(group: ExecutionRoleGroup): string {
  const words = group.split('-').map((word) => `${word[0]?.toUpperCase()}${word.slice(1)}`);
  return `${words.join('')}Role`;
}
