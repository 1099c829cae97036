import { CfnOutput, type CfnResource, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { adminRouteList } from '#shared/admin/api/operations.ts';
import { fallbackOperation, routeList, servedRouteList } from '#shared/api/route-table.ts';
import { getGuidanceOperation } from '#shared/guidance/api/operations.ts';
import { SANDBOX_BASE_URL_ENV } from '#shared/platform/config.ts';
import { OPERATOR_AUTH_ENV } from '#shared/platform/http/operator.ts';
import { PRICE_FEED_BUCKET_ENV, STALE_PRICE_HOURS_ENV } from '#shared/platform/price-feed-config.ts';
import { ingestLocationsOperation } from '#shared/tracking/api/operations.ts';
import { Alarms } from './alarms.ts';
import { Api } from './api.ts';
import type { ControlPlaneStack } from './control-plane-stack.ts';
import { CursorSigningSecret } from './cursor-signing-secret.ts';
import { OperationsDashboard } from './dashboard.ts';
import { DataTable } from './data.ts';
import { ExecutionRoles } from './execution-roles.ts';
import { Finance } from './finance.ts';
import { GuidanceWorker, VehicleUpdatesQueue } from './ingest.ts';
import { Jobs } from './jobs.ts';
import { PriceFeed } from './price-feed.ts';
import { SandboxSimulator } from './sandbox.ts';
import { publishSandboxHandoff, readSandboxHandoff } from './sandbox-handoff.ts';
import { serviceEnvironment } from './service-environment.ts';
import type { StageSettings } from './stage.ts';
import { Webhooks } from './webhooks.ts';

export interface FleetFuelStackProps extends StackProps {
  settings: StageSettings;
  /** Where scripts/bundle-functions.ts wrote `<operationId>/index.mjs`. */
  functionsDir: string;
  /** The control plane both stages read (lib/control-plane-stack.ts). */
  control: Pick<ControlPlaneStack, 'data' | 'operatorRole'>;
  /**
   * Production only: the operator API (/admin/v1/…, IAM-authorized), which writes new companies'
   * sandbox twins into the sandbox stage's table, and the sandbox's API address, which
   * production's sandbox-only routes name (SANDBOX_BASE_URL). Both come from the sandbox's SSM
   * parameters (lib/sandbox-handoff.ts).
   */
  operatorApi?: boolean;
}

/**
 * One stage of the service: its own table, signing secret, functions, ingest and webhook pipelines,
 * scheduled jobs, alarms and API URL.
 */
export class FleetFuelStack extends Stack {
  readonly data: DataTable;
  readonly cursorSigningSecret: CursorSigningSecret;
  readonly roles: ExecutionRoles;
  readonly vehicleUpdates: VehicleUpdatesQueue;
  readonly webhooks: Webhooks;
  readonly guidanceWorker: GuidanceWorker;
  readonly jobs: Jobs;
  /** Production only: the price feed bucket, its import and the freshness job. */
  readonly priceFeed: PriceFeed | undefined;
  /** Sandbox stage only. */
  readonly sandboxSimulator: SandboxSimulator | undefined;
  readonly api: Api;
  readonly alarms: Alarms;
  readonly dashboard: OperationsDashboard;
  readonly finance: Finance;

  constructor(scope: Construct, id: string, props: FleetFuelStackProps) {
    // A stage that keeps its data cannot be deleted by a stray `cdk destroy` or console click:
    // protection must be turned off on purpose first (docs/operations.md, teardown).
    super(scope, id, { ...props, terminationProtection: props.settings.retainData });
    const { settings } = props;
    const logGroupNames = {
      functionPrefix: `/fleet-fuel/${settings.stage}/functions`,
      access: `/fleet-fuel/${settings.stage}/api-access`,
    };

    // Stateful resources first and apart: they outlive every redeploy of the stateless ones.
    this.data = new DataTable(this, 'Data', { retainData: settings.retainData });
    this.cursorSigningSecret = new CursorSigningSecret(this, 'CursorSigningKey', {
      retainData: settings.retainData,
    });

    const sandbox = props.operatorApi ? readSandboxHandoff(this) : undefined;
    this.roles = new ExecutionRoles(this, 'ExecutionRoles', {
      table: this.data.table,
      controlTable: props.control.data.table,
      sandboxTable: sandbox?.table,
      functionLogPrefix: logGroupNames.functionPrefix,
      routingEngine: settings.routingEngine,
    });
    // The vehicle-updates queue comes before every function, as each names it in its environment
    // (one environment shape); its consumer comes after the webhook pipeline, whose queue it also names.
    this.vehicleUpdates = new VehicleUpdatesQueue(this, 'VehicleUpdates', { settings, roles: this.roles });
    const environment = {
      ...serviceEnvironment({
        settings,
        tableName: this.data.table.tableName,
        controlTableName: props.control.data.table.tableName,
        cursorSigningKey: this.cursorSigningSecret.environmentValue(),
      }),
      ...this.vehicleUpdates.environment,
    };
    this.webhooks = new Webhooks(this, 'Webhooks', {
      settings,
      functionsDir: props.functionsDir,
      roles: this.roles,
      environment,
      functionLogPrefix: logGroupNames.functionPrefix,
    });
    // Events recorded by any function (route, worker or job) fan out to the deliveries queue.
    const functionEnvironment = { ...environment, ...this.webhooks.environment };
    const workerProps = {
      settings,
      functionsDir: props.functionsDir,
      roles: this.roles,
      environment: functionEnvironment,
      functionLogPrefix: logGroupNames.functionPrefix,
      deliveries: this.webhooks.deliveries,
    };
    this.guidanceWorker = new GuidanceWorker(this, 'GuidanceWorker', {
      ...workerProps,
      vehicleUpdates: this.vehicleUpdates,
    });
    this.jobs = new Jobs(this, 'Jobs', workerProps);
    // The simulator's tick runs on the sandbox stage only: production has no simulated fleets.
    this.sandboxSimulator =
      settings.stage === 'sandbox'
        ? new SandboxSimulator(this, 'SandboxSimulator', {
            ...workerProps,
            vehicleUpdates: this.vehicleUpdates.queue,
            group: this.jobs.group,
            schedulerRole: this.jobs.schedulerRole,
          })
        : undefined;
    // Production only: the sandbox serves the synthetic catalog by design, so it has no feed to watch.
    this.priceFeed =
      settings.stage === 'prod'
        ? new PriceFeed(this, 'PriceFeed', {
            ...workerProps,
            group: this.jobs.group,
            schedulerRole: this.jobs.schedulerRole,
          })
        : undefined;
    // Only the API's functions answer callers, so only they learn the sandbox's address.
    const apiEnvironment = sandbox
      ? { ...functionEnvironment, [SANDBOX_BASE_URL_ENV]: sandbox.baseUrl }
      : functionEnvironment;
    this.api = new Api(this, 'Api', {
      settings,
      routes: servedRouteList,
      fallback: fallbackOperation,
      functionsDir: props.functionsDir,
      roles: this.roles,
      environment: apiEnvironment,
      logGroupNames,
      ...(sandbox
        ? {
            operator: {
              routes: adminRouteList,
              environment: {
                ...functionEnvironment,
                SANDBOX_TABLE_NAME: sandbox.table.tableName,
                [OPERATOR_AUTH_ENV]: 'iam',
                // The readiness report names the feed and judges the newest price by the alarm's threshold.
                ...(this.priceFeed ? { [PRICE_FEED_BUCKET_ENV]: this.priceFeed.bucket.bucketName } : {}),
                [STALE_PRICE_HOURS_ENV]: String(settings.stalePriceHours),
              },
            },
          }
        : {}),
    });
    if (props.operatorApi) this.grantOperatorInvoke(props.control);

    const keyFunctions = {
      'ingest (POST /v1/locations)': this.routeFunction(ingestLocationsOperation.operationId),
      'guidance read (GET …/guidance)': this.routeFunction(getGuidanceOperation.operationId),
      'guidance worker': this.guidanceWorker.worker.function,
      'webhook dispatcher': this.webhooks.dispatcher.function,
    };
    this.alarms = new Alarms(this, 'Alarms', {
      stage: settings.stage,
      ingest: keyFunctions['ingest (POST /v1/locations)'],
      guidanceRead: keyFunctions['guidance read (GET …/guidance)'],
      ...(this.sandboxSimulator ? { sandboxTick: this.sandboxSimulator.tick.function } : {}),
      // One stage watches the control table both read, so its faults page once: production's.
      ...(props.operatorApi ? { controlTable: props.control.data.table } : {}),
      httpApiId: this.api.httpApi.apiId,
      deadLetters: this.webhooks.deadLetters,
      dispatcher: this.webhooks.dispatcher.function,
      table: this.data.table,
      vehicleUpdatesDeadLetters: this.vehicleUpdates.deadLetters,
      guidanceWorker: this.guidanceWorker.worker.function,
      offlineSweep: this.jobs.offlineSweep.function,
      vehicleUpdates: this.vehicleUpdates.queue,
      deliveries: this.webhooks.deliveries,
      healthSnapshot: this.jobs.healthSnapshot.function,
      scheduleGroups: [this.jobs.group.scheduleGroupName, this.webhooks.retrySchedules.scheduleGroupName],
      ...(this.priceFeed
        ? {
            priceFeed: {
              importer: this.priceFeed.importer.function,
              stalePriceHours: settings.stalePriceHours,
            },
          }
        : {}),
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description: 'Subscribe the on-call pager or an email to this topic',
    });
    this.dashboard = new OperationsDashboard(this, 'Operations', {
      stage: settings.stage,
      httpApiId: this.api.httpApi.apiId,
      alarms: this.alarms.alarms,
      keyFunctions,
      vehicleUpdates: this.vehicleUpdates.queue,
      vehicleUpdatesDeadLetters: this.vehicleUpdates.deadLetters,
      deliveries: this.webhooks.deliveries,
      deliveriesDeadLetters: this.webhooks.deadLetters,
      dispatcher: this.webhooks.dispatcher.function,
      table: this.data.table,
      ...(this.priceFeed ? { priceFeed: { stalePriceHours: settings.stalePriceHours } } : {}),
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: this.dashboard.url,
      description: `The ${settings.stage} operations dashboard: alarms, API, lag, dead letters, throttles`,
    });

    this.finance = new Finance(this, 'Finance', {
      stage: settings.stage,
      httpApiId: this.api.httpApi.apiId,
      // The functions of metered routes: they write the usage records the queries total.
      usageLogGroups: [
        ...new Set(
          routeList
            .filter((route) => route.family !== null)
            .flatMap((route) => this.api.functions.get(route.operationId)?.logGroup ?? []),
        ),
      ],
    });

    if (this.priceFeed) {
      new CfnOutput(this, 'PriceFeedBucketName', {
        value: this.priceFeed.bucket.bucketName,
        description:
          'Drop price files under incoming/ (publish) or dry-run/ (diff only); reports/ has each outcome',
      });
    }

    if (settings.stage === 'sandbox') {
      publishSandboxHandoff(this, {
        tableName: this.data.table.tableName,
        baseUrl: this.api.httpApi.apiEndpoint,
      });
    }

    new CfnOutput(this, 'ApiUrl', {
      value: this.api.url,
      description: `Base URL of the ${settings.stage} API`,
    });
    new CfnOutput(this, 'TableName', {
      value: this.data.table.tableName,
      description: `The ${settings.stage} stage's table (TABLE_NAME for npm run stations:import, restores, queries)`,
    });
  }

  /** A route's function, which the alarms and the dashboard watch by name wherever its stack is. */
  private routeFunction(operationId: string) {
    const fn = this.api.functions.get(operationId);
    if (!fn) throw new Error(`The API has no function for ${operationId}`);
    return fn.function;
  }

  /**
   * The operators' role may invoke this stage's /admin routes and nothing else of the API. The
   * policy lives here, beside the API it names, so the control stack never depends on a stage.
   */
  private grantOperatorInvoke(control: Pick<ControlPlaneStack, 'operatorRole'>): void {
    const apiResource = this.api.httpApi.node.defaultChild as CfnResource;
    const apiId = this.resolve(apiResource.logicalId) as string;
    const policy = new Policy(this, 'OperatorInvoke', {
      roles: [control.operatorRole],
      statements: [
        new PolicyStatement({
          actions: ['execute-api:Invoke'],
          resources: adminRouteList.map((route) =>
            this.api.httpApi.arnForExecuteApi(route.method, invokePath(route.path), '$default'),
          ),
        }),
      ],
    });
    for (const route of adminRouteList.filter((r) => invokePath(r.path) !== r.path)) {
      Validations.of(policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${apiId}>/$default/${route.method}${invokePath(route.path)}]`,
        reason: 'A path parameter (an id) is one `*` segment of exactly this operator route.',
      });
    }
  }
}

/** An execute-api resource path: each `{param}` matches any one id. */
function invokePath(path: string): string {
  return path.replace(/\{[^}]+\}/g, '*');
}
