import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSystem, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlaneStack, parseOperatorPrincipals } from '#lib/control-plane-stack.ts';
import type { ExecutionRoleGroup } from '#lib/execution-roles.ts';
import type { FleetFuelStack } from '#lib/fleet-fuel-stack.ts';
import { type Stage, stageSettings } from '#lib/stage.ts';
import {
  OFFLINE_SWEEP,
  PRICE_FRESHNESS,
  productionOnlyWorkers,
  SANDBOX_TICK,
  sandboxOnlyWorkers,
  type WorkerFunction,
  workerFunctions,
} from '#lib/worker-functions.ts';
import { repoRoot } from '#scripts/bundle-functions.ts';
import { adminRouteList } from '#shared/admin/api/operations.ts';
import { fallbackOperation, servedRouteList } from '#shared/api/route-table.ts';
import { readConfig } from '#shared/platform/config.ts';
import { TABLE_KEYS } from '#shared/table/table.ts';
import { acceptedWarnings, type CfnLintFinding, cfnLintInstalled, lintTemplates } from './cfn-lint.ts';
import {
  CLOUDFORMATION_LIMITS,
  documentedFigures,
  formatFigures,
  type StackFigures,
  stackFigures,
} from './stack-figures.ts';
import { logicalIdOf, stageTemplate } from './stage-template.ts';
import { bundleForCdkTests, type CdkFixture, TEST_OPERATOR } from './synthesize.ts';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

const ref = (logicalId: string) => ({ Ref: logicalId });
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
/** The logical id behind `{ Ref }` or `{ Fn::GetAtt: [id, …] }`. */
function referencedId(value: unknown): string {
  const reference = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = reference.Ref ?? reference['Fn::GetAtt']?.[0];
  if (!id) throw new Error(`Not a reference: ${JSON.stringify(value)}`);
  return id;
}

/** A reference to a resource of another stack (the control plane's table or role, the sandbox table). */
const isImport = (value: unknown) => JSON.stringify(value).includes('Fn::ImportValue');

/**
 * The route table's functions and pages, and on production the operator API's; the workers
 * (lib/worker-functions.ts) come on top.
 */
const functionsOf = (stage: Stage) => [
  ...servedRouteList,
  fallbackOperation,
  ...(stage === 'prod' ? adminRouteList : []),
];
/**
 * The workers a stage runs: the sandbox tick only on the sandbox stage (lib/sandbox.ts), the price
 * feed import and the freshness job only on production (lib/price-feed.ts).
 */
const workersOf = (stage: Stage) =>
  workerFunctions.filter(
    (fn) => !(stage === 'prod' ? sandboxOnlyWorkers : productionOnlyWorkers).includes(fn),
  );
const roleGroupsOf = (stage: Stage) =>
  new Set<string>([...functionsOf(stage).map((fn) => fn.role), ...workersOf(stage).map((fn) => fn.role)]);

let fixture: CdkFixture;
let stacks: Record<Stage, FleetFuelStack>;
let templates: Record<Stage, Template>;

beforeAll(async () => {
  fixture = await bundleForCdkTests();
  const { stages } = fixture.createApp();
  stacks = stages;
  templates = { prod: stageTemplate(stages.prod), sandbox: stageTemplate(stages.sandbox) };
  // Bundling every function takes ~40 s on an idle 2-core machine and ran past 120 s at load 10.
}, 600_000);

afterAll(() => fixture?.cleanUp());

describe.each(['prod', 'sandbox'] as const)('the %s stack', (stage) => {
  const stageWorkers = workersOf(stage);
  const everyFunction = functionsOf(stage);
  const roleGroupsInUse = roleGroupsOf(stage);
  const template = () => templates[stage];
  const stack = () => stacks[stage];
  const resources = (type: string) => template().findResources(type) as Record<string, Resource>;
  const logicalId = logicalIdOf;
  const functionId = (operationId: string) => {
    const fn = stack().api.functions.get(operationId);
    if (!fn) throw new Error(`No function for ${operationId}`);
    return logicalId(fn.function);
  };
  const tableId = () => logicalId(stack().data.table);
  const dispatcherId = () => logicalId(stack().webhooks.dispatcher.function);
  const guidanceWorkerId = () => logicalId(stack().guidanceWorker.worker.function);
  const offlineSweepId = () => logicalId(stack().jobs.offlineSweep.function);
  const sandboxTickId = () => {
    const simulator = stack().sandboxSimulator;
    if (!simulator) throw new Error(`The ${stage} stack has no sandbox simulator`);
    return logicalId(simulator.tick.function);
  };
  const healthSnapshotId = () => logicalId(stack().jobs.healthSnapshot.function);
  const priceFeed = () => {
    const feed = stack().priceFeed;
    if (!feed) throw new Error(`The ${stage} stack has no price feed`);
    return feed;
  };
  const priceFeedImportId = () => logicalId(priceFeed().importer.function);
  const priceFreshnessId = () => logicalId(priceFeed().freshness.function);
  /** The functions that are not routes, by their lib/worker-functions.ts name. */
  const workerFunctionId = (fn: WorkerFunction) => {
    const ids: Record<string, () => string> = {
      webhookDispatcher: dispatcherId,
      guidanceWorker: guidanceWorkerId,
      offlineSweep: offlineSweepId,
      sandboxTick: sandboxTickId,
      healthSnapshot: healthSnapshotId,
      priceFeedImport: priceFeedImportId,
      priceFreshness: priceFreshnessId,
    };
    const lookUp = ids[fn.name];
    if (!lookUp) throw new Error(`The stack tests do not know where ${fn.name} is`);
    return lookUp();
  };
  const deliveriesId = () => logicalId(stack().webhooks.deliveries);
  const deadLettersId = () => logicalId(stack().webhooks.deadLetters);
  const schedulerRoleId = () => logicalId(stack().webhooks.schedulerRole);
  const vehicleUpdatesId = () => logicalId(stack().vehicleUpdates.queue);
  const vehicleUpdatesDlqId = () => logicalId(stack().vehicleUpdates.deadLetters);
  const jobsSchedulerRoleId = () => logicalId(stack().jobs.schedulerRole);

  describe('routes', () => {
    it('has exactly one API route per route table entry, plus $default', () => {
      const routeKeys = Object.values(resources('AWS::ApiGatewayV2::Route')).map(
        (r) => r.Properties.RouteKey,
      );
      const tables = stage === 'prod' ? [...servedRouteList, ...adminRouteList] : servedRouteList;
      const expected = [...tables.map((route) => `${route.method} ${route.path}`), '$default'];

      expect([...routeKeys].sort()).toEqual([...expected].sort());
    });

    it(
      stage === 'prod'
        ? 'puts the IAM authorizer on every /admin route and on nothing else'
        : 'serves no /admin route',
      () => {
        const routes = Object.values(resources('AWS::ApiGatewayV2::Route'));
        for (const route of routes) {
          const key = route.Properties.RouteKey as string;
          const iam = route.Properties.AuthorizationType === 'AWS_IAM';
          expect(iam, key).toBe(key.includes(' /admin/'));
        }
        const adminOperations = routes.filter((route) =>
          String(route.Properties.RouteKey).includes(' /admin/'),
        );
        expect(adminOperations).toHaveLength(stage === 'prod' ? adminRouteList.length : 0);
      },
    );

    it('sends each route to the function bundled from that route’s handler', () => {
      const integrations = resources('AWS::ApiGatewayV2::Integration');
      const functions = resources('AWS::Lambda::Function');
      const routeTarget = new Map(
        Object.values(resources('AWS::ApiGatewayV2::Route')).map((route) => {
          const [, parts] = (route.Properties.Target as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
          const integration = integrations[referencedId(parts[1])];
          return [route.Properties.RouteKey as string, referencedId(integration?.Properties.IntegrationUri)];
        }),
      );

      for (const entry of everyFunction) {
        const routeKey = 'method' in entry ? `${entry.method} ${entry.path}` : '$default';
        const target = routeTarget.get(routeKey);
        expect(target, routeKey).toBe(functionId(entry.operationId));
        // The asset's hash is the fingerprint of the operation's own bundle folder.
        const code = functions[target as string]?.Properties.Code as { S3Key: string };
        const bundleDir = join(fixture.functionsDir, entry.operationId);
        expect(existsSync(join(bundleDir, 'index.mjs')), bundleDir).toBe(true);
        expect(code.S3Key, routeKey).toBe(`${FileSystem.fingerprint(bundleDir)}.zip`);
      }
    });

    it('throttles the $default stage with the stage’s limits and keeps access logs', () => {
      const { throttle } = stageSettings[stage];
      template().hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: {
          ThrottlingRateLimit: throttle.rateLimit,
          ThrottlingBurstLimit: throttle.burstLimit,
        },
        AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] } },
      });
    });

    it('outputs the API URL and the table name', () => {
      expect(Object.keys(template().findOutputs('ApiUrl'))).toEqual(['ApiUrl']);
      expect(template().findOutputs('TableName').TableName?.Value).toEqual({ Ref: tableId() });
    });

    it(
      stage === 'prod'
        ? 'reads the sandbox’s table and URL from SSM parameters at deploy, importing nothing from it'
        : 'hands its table name and URL to production through SSM parameters, exporting nothing to it',
      () => {
        const text = JSON.stringify(template().toJSON());
        if (stage === 'prod') {
          expect(text).not.toContain('FleetFuel-sandbox:');
          const parameters = Object.values(
            template().toJSON().Parameters as Record<string, { Default?: string }>,
          );
          expect(parameters.map((parameter) => parameter.Default)).toEqual(
            expect.arrayContaining(['/fleet-fuel/sandbox/table-name', '/fleet-fuel/sandbox/base-url']),
          );
          expect(stack().dependencies.map((dependency) => dependency.stackName)).toContain(
            'FleetFuel-sandbox',
          );
        } else {
          expect(
            Object.keys(template().findOutputs('*')).filter((name) => name.startsWith('ExportsOutput')),
          ).toEqual([]);
          template().hasResourceProperties('AWS::SSM::Parameter', {
            Name: '/fleet-fuel/sandbox/table-name',
            Value: { Ref: tableId() },
          });
          template().hasResourceProperties('AWS::SSM::Parameter', { Name: '/fleet-fuel/sandbox/base-url' });
        }
      },
    );

    it(
      stage === 'prod'
        ? 'reserves concurrency for breadcrumb ingest, and for nothing else'
        : 'reserves no concurrency (the account’s executions are production’s to reserve)',
      () => {
        const reserved = Object.entries(resources('AWS::Lambda::Function'))
          .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
          .map(([id, fn]) => [id, fn.Properties.ReservedConcurrentExecutions]);
        const ingest = stack().api.functions.get('ingestLocations');
        expect(ingest).toBeDefined();
        expect(reserved).toEqual(
          stage === 'prod' ? [[logicalId((ingest as NonNullable<typeof ingest>).function), 100]] : [],
        );
      },
    );

    it('names nothing account-wide (roles, managed policies, buckets, dashboards without the region), so a second region deploys beside the first', () => {
      const named = Object.entries(template().toJSON().Resources as Record<string, Resource>).filter(
        ([, resource]) =>
          (resource.Type === 'AWS::IAM::Role' && resource.Properties.RoleName !== undefined) ||
          (resource.Type === 'AWS::IAM::ManagedPolicy' &&
            resource.Properties.ManagedPolicyName !== undefined) ||
          (resource.Type === 'AWS::S3::Bucket' && resource.Properties.BucketName !== undefined) ||
          // Dashboard names are account-wide too: a fixed one must carry the region.
          (resource.Type === 'AWS::CloudWatch::Dashboard' &&
            resource.Properties.DashboardName !== undefined &&
            !JSON.stringify(resource.Properties.DashboardName).includes('AWS::Region')),
      );
      expect(named.map(([id]) => id)).toEqual([]);
    });

    it('caps each queue consumer at its stage’s concurrency, the sandbox’s far below production’s', () => {
      const caps = Object.values(resources('AWS::Lambda::EventSourceMapping')).map(
        (mapping) =>
          (mapping.Properties.ScalingConfig as { MaximumConcurrency?: number } | undefined)
            ?.MaximumConcurrency,
      );
      const { guidanceWorker, webhookDispatcher } = stageSettings[stage].consumerConcurrency;
      expect(caps.sort()).toEqual([guidanceWorker, webhookDispatcher].sort());
      if (stage === 'sandbox') {
        expect(guidanceWorker * 10).toBeLessThanOrEqual(
          stageSettings.prod.consumerConcurrency.guidanceWorker,
        );
        expect(webhookDispatcher * 5).toBeLessThanOrEqual(
          stageSettings.prod.consumerConcurrency.webhookDispatcher,
        );
      }
    });

    it(stage === 'prod' ? 'is protected from deletion' : 'can be deleted (it keeps no data)', () => {
      expect(stack().terminationProtection).toBe(stage === 'prod');
    });
  });

  describe('functions', () => {
    it('runs every function on nodejs22.x, arm64, with tracing and the house memory and timeout', () => {
      const functions = Object.entries(resources('AWS::Lambda::Function'));

      expect(functions).toHaveLength(everyFunction.length + stageWorkers.length);
      const workerTimeouts = new Map(stageWorkers.map((fn) => [workerFunctionId(fn), fn.timeoutSeconds]));
      // The price feed import parses a whole file in memory (lib/worker-functions.ts).
      const workerMemory = new Map(stageWorkers.map((fn) => [workerFunctionId(fn), fn.memoryMb ?? 512]));
      // A route that sets its own timeout (the sandbox advance) has it; its description is `METHOD /path`.
      const routeTimeouts = new Map(
        servedRouteList.map((route) => [`${route.method} ${route.path}`, route.timeoutSeconds]),
      );
      for (const [id, { Properties }] of functions) {
        expect(Properties).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          MemorySize: workerMemory.get(id) ?? 512,
          Timeout: workerTimeouts.get(id) ?? routeTimeouts.get(Properties.Description as string) ?? 10,
          TracingConfig: { Mode: 'Active' },
        });
      }
    });

    it.each(stageWorkers.map((fn) => [fn.name, fn] as const))('runs %s from its own bundle', (_, fn) => {
      const code = resources('AWS::Lambda::Function')[workerFunctionId(fn)]?.Properties.Code as {
        S3Key: string;
      };
      const bundleDir = join(fixture.functionsDir, fn.name);

      expect(existsSync(join(bundleDir, 'index.mjs')), bundleDir).toBe(true);
      expect(code.S3Key).toBe(`${FileSystem.fingerprint(bundleDir)}.zip`);
    });

    it('gives every function the stage’s environment, with the signing key as a deploy-time reference', () => {
      const secretId = logicalId(stack().cursorSigningSecret.secret);

      const adminFunctions = new Set(adminRouteList.map((route) => route.operationId));
      for (const [id, { Properties }] of Object.entries(resources('AWS::Lambda::Function'))) {
        const variables = (Properties.Environment as { Variables: Record<string, unknown> }).Variables;
        const operator = [...adminFunctions].some(
          (operationId) => stack().api.functions.get(operationId) && functionId(operationId) === id,
        );
        expect(stage === 'prod' || !operator).toBe(true);
        // Production's route functions (the fallback included) name the sandbox's address.
        const route =
          !operator && [...stack().api.functions.values()].some((fn) => logicalId(fn.function) === id);
        const priceFeedBucket = stage === 'prod' ? { Ref: logicalId(priceFeed().bucket) } : undefined;
        expect(variables).toEqual({
          ...(stage === 'prod' && route
            ? {
                SANDBOX_BASE_URL: { Ref: expect.stringMatching(/^SsmParameterValuefleetfuelsandboxbaseurl/) },
              }
            : {}),
          STAGE: stage,
          TABLE_NAME: ref(tableId()),
          CONTROL_TABLE_NAME: { 'Fn::ImportValue': expect.stringMatching(/^FleetFuel-control:/) },
          ...(operator
            ? {
                SANDBOX_TABLE_NAME: {
                  Ref: expect.stringMatching(/^SsmParameterValuefleetfuelsandboxtablename/),
                },
                OPERATOR_AUTH: 'iam',
                // The readiness report's.
                PRICE_FEED_BUCKET: priceFeedBucket,
                STALE_PRICE_HOURS: String(stageSettings[stage].stalePriceHours),
              }
            : {}),
          ...(stage === 'prod' && id === priceFeedImportId() ? { PRICE_FEED_BUCKET: priceFeedBucket } : {}),
          CURSOR_SIGNING_KEY: {
            'Fn::Join': ['', ['{{resolve:secretsmanager:', ref(secretId), ':SecretString:::}}']],
          },
          POWERTOOLS_SERVICE_NAME: 'fleet-fuel-guidance',
          POWERTOOLS_LOG_LEVEL: stageSettings[stage].logLevel,
          ROUTING_ENGINE: stageSettings[stage].routingEngine,
          DELIVERIES_QUEUE_URL: ref(deliveriesId()),
          DELIVERIES_QUEUE_ARN: arnOf(deliveriesId()),
          DELIVERIES_DLQ_URL: ref(deadLettersId()),
          SCHEDULER_ROLE_ARN: arnOf(schedulerRoleId()),
          SCHEDULE_GROUP_NAME: `fleet-fuel-${stage}-webhook-retries`,
          VEHICLE_UPDATES_QUEUE_URL: ref(vehicleUpdatesId()),
        });
        // Read inside Lambda, that environment delivers webhooks to public receivers only: nothing
        // in it widens the target policy the local stack may (docs/decisions.md).
        const asDeployed = Object.fromEntries(
          Object.entries(variables).map(([name, value]) => [
            name,
            typeof value === 'string' ? value : 'token',
          ]),
        );
        expect(readConfig({ ...asDeployed, AWS_LAMBDA_FUNCTION_NAME: id }).webhookTargets).toBe('public');
      }
    });

    it('logs every function to a stack-made group kept one month: one per API feature, one per worker', () => {
      const logGroups = resources('AWS::Logs::LogGroup');
      const groupOf = (fn: Resource) =>
        referencedId((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup);
      const functions = resources('AWS::Lambda::Function');
      const used = Object.values(functions).map(groupOf);
      for (const id of used) expect(logGroups[id]?.Properties.RetentionInDays).toBe(30);

      const workerGroups = workersOf(stage).map((fn) => groupOf(functions[workerFunctionId(fn)] as Resource));
      const routeGroups = servedRouteList.map((route) =>
        groupOf(
          functions[logicalId(stack().api.functions.get(route.operationId)?.function as never)] as Resource,
        ),
      );
      // A worker's group is its own; the routes of one feature (first tag) share theirs.
      expect(new Set(workerGroups).size).toBe(workerGroups.length);
      for (const group of workerGroups) expect(routeGroups).not.toContain(group);
      const features = new Set(servedRouteList.map((route) => route.tags[0]));
      expect(new Set(routeGroups).size).toBe(features.size);
    });
  });

  describe('permissions', () => {
    const roleOfFunctionId = (id: string) =>
      referencedId(resources('AWS::Lambda::Function')[id]?.Properties.Role);
    const roleOfFunction = (operationId: string) => roleOfFunctionId(functionId(operationId));
    const roleOfGroup = (group: string) => {
      const worker = stageWorkers.find((fn) => fn.role === group);
      if (worker) return roleOfFunctionId(workerFunctionId(worker));
      const entry = everyFunction.find((fn) => fn.role === group);
      if (!entry) throw new Error(`No function uses role group ${group}`);
      return roleOfFunction(entry.operationId);
    };
    const statementsOf = (roleId: string): Statement[] =>
      Object.values(resources('AWS::IAM::Policy'))
        .filter((policy) =>
          // The operators' role lives in the control stack (an import here), never a function's.
          (policy.Properties.Roles as unknown[]).some(
            (role) => !isImport(role) && referencedId(role) === roleId,
          ),
        )
        .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    const statementsFor = (service: string) => (roleId: string) =>
      statementsOf(roleId).filter((s) => asList(s.Action).some((action) => action.startsWith(`${service}:`)));
    const dynamoStatements = statementsFor('dynamodb');
    const sqsStatements = statementsFor('sqs');

    it('has one execution role per role group in use, shared by that group’s functions', () => {
      // No CDK-internal roles: log groups are plain resources (no log-retention custom resource).
      // The two roles more are the ones Scheduler assumes: to bring retries back, and to run the jobs.
      expect(Object.keys(resources('AWS::IAM::Role')).sort()).toEqual(
        [...new Set([...roleGroupsInUse].map(roleOfGroup)), schedulerRoleId(), jobsSchedulerRoleId()].sort(),
      );
      for (const fn of everyFunction)
        expect(roleOfFunction(fn.operationId), fn.operationId).toBe(roleOfGroup(fn.role));
      expect(new Set([...roleGroupsInUse].map(roleOfGroup)).size).toBe(roleGroupsInUse.size);
    });

    // What each role may do in DynamoDB: test/cdk/least-privilege.test.ts.

    if (stage === 'prod') {
      it('lets the operators’ role invoke the /admin routes of this API and nothing else', () => {
        const policies = Object.values(resources('AWS::IAM::Policy')).filter((policy) =>
          (policy.Properties.Roles as unknown[]).some(isImport),
        );
        expect(policies).toHaveLength(1);
        const [policy] = policies as [Resource];
        const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
        expect(statements.flatMap((s) => asList(s.Action))).toEqual(['execute-api:Invoke']);
        const resourcesText = statements.flatMap((s) => asList(s.Resource)).map((r) => JSON.stringify(r));
        expect(resourcesText).toHaveLength(adminRouteList.length);
        for (const text of resourcesText) expect(text).toContain('/admin/v1/');
      });
    }

    it('gives the public role no DynamoDB or SQS access at all', () => {
      expect(dynamoStatements(roleOfGroup('public'))).toEqual([]);
      expect(sqsStatements(roleOfGroup('public'))).toEqual([]);
    });

    it('lets the api role send to the deliveries queue (event fan-out) and to vehicle-updates (ingest), and do nothing else on SQS', () => {
      const statements = sqsStatements(roleOfGroup('api'));

      expect(statements.flatMap((s) => asList(s.Action))).toEqual(['sqs:SendMessage']);
      const queues = statements.flatMap((s) => asList(s.Resource));
      expect(queues).toHaveLength(2);
      expect(queues).toEqual(expect.arrayContaining([arnOf(deliveriesId()), arnOf(vehicleUpdatesId())]));
    });

    it('lets the guidance worker consume vehicle-updates and send to the deliveries queue, and nothing else on SQS', () => {
      const byResource = new Map<string, string[]>();
      for (const statement of sqsStatements(roleOfGroup('guidance-worker'))) {
        const resource = referencedId(statement.Resource);
        byResource.set(resource, [...(byResource.get(resource) ?? []), ...asList(statement.Action)]);
      }

      expect([...byResource.keys()].sort()).toEqual([vehicleUpdatesId(), deliveriesId()].sort());
      expect(byResource.get(deliveriesId())).toEqual(['sqs:SendMessage']);
      expect(byResource.get(vehicleUpdatesId())).toEqual(
        expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
      );
      expect(byResource.get(vehicleUpdatesId())).not.toContain('sqs:SendMessage');
    });

    it('lets the offline sweep send to the deliveries queue only', () => {
      expect(sqsStatements(roleOfGroup('offline-sweep'))).toEqual([
        { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: arnOf(deliveriesId()) },
      ]);
    });

    it('lets only the api role (and the sandbox tick) send vehicle updates, only the guidance worker consume them, and nobody touch their DLQ', () => {
      const onQueue = (queueId: string) =>
        Object.keys(resources('AWS::IAM::Role')).filter((roleId) =>
          statementsOf(roleId).some((s) => JSON.stringify(s.Resource).includes(queueId)),
        );

      expect(onQueue(vehicleUpdatesId()).sort()).toEqual(
        [
          roleOfGroup('api'),
          roleOfGroup('guidance-worker'),
          ...(stage === 'sandbox' ? [roleOfGroup('sandbox-tick')] : []),
        ].sort(),
      );
      expect(onQueue(vehicleUpdatesDlqId())).toEqual([]);
    });

    it('lets the jobs’ Scheduler role invoke the stage’s jobs (offline sweep, health snapshot; sandbox tick on the sandbox, price freshness on production) and nothing else', () => {
      const statements = statementsOf(jobsSchedulerRoleId());
      const jobIds = [
        offlineSweepId(),
        healthSnapshotId(),
        ...(stage === 'sandbox' ? [sandboxTickId()] : [priceFreshnessId()]),
      ];

      expect(new Set(statements.flatMap((s) => asList(s.Action)))).toEqual(
        new Set(['lambda:InvokeFunction']),
      );
      const resources = statements.flatMap((s) => asList(s.Resource)).map((r) => JSON.stringify(r));
      for (const resource of resources)
        expect(
          jobIds.some((id) => resource.includes(`"${id}"`)),
          resource,
        ).toBe(true);
      for (const id of jobIds)
        expect(
          resources.some((r) => r.includes(`"${id}"`)),
          id,
        ).toBe(true);
    });

    it('lets the dispatcher consume and send to the deliveries queue, and send to the DLQ', () => {
      const byResource = new Map<string, string[]>();
      for (const statement of sqsStatements(roleOfGroup('webhook-dispatcher'))) {
        const resource = referencedId(statement.Resource);
        byResource.set(resource, [...(byResource.get(resource) ?? []), ...asList(statement.Action)]);
      }

      expect([...byResource.keys()].sort()).toEqual([deliveriesId(), deadLettersId()].sort());
      expect(byResource.get(deadLettersId())).toEqual(['sqs:SendMessage']);
      expect(byResource.get(deliveriesId())).toEqual(
        expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage']),
      );
    });

    it('grants no wildcard action and nothing on * but X-Ray', () => {
      for (const { Properties } of Object.values(resources('AWS::IAM::Policy'))) {
        for (const statement of (Properties.PolicyDocument as { Statement: Statement[] }).Statement) {
          const actions = asList(statement.Action);
          expect(actions.filter((action) => action === '*' || action.endsWith(':*'))).toEqual([]);
          if (asList(statement.Resource).includes('*')) {
            expect(actions.every((action) => action.startsWith('xray:'))).toBe(true);
          }
        }
      }
    });

    it('lets functions write only to the stage’s function log groups, without managed policies', () => {
      for (const [roleId, role] of Object.entries(resources('AWS::IAM::Role'))) {
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
        if (roleId === schedulerRoleId() || roleId === jobsSchedulerRoleId()) continue;
        const logStatements = statementsOf(roleId).filter((s) =>
          asList(s.Action).some((a) => a.startsWith('logs:')),
        );
        expect(JSON.stringify(logStatements.map((s) => s.Resource))).toContain(
          `:log-group:/fleet-fuel/${stage}/functions/*`,
        );
      }
    });
  });

  describe('data', () => {
    it('keys the table and its indexes by TABLE_KEYS (the online index keys only), on demand, with TTL and point-in-time recovery', () => {
      const gsis = TABLE_KEYS.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: index.projection },
      }));
      expect(gsis.map((gsi) => gsi.Projection.ProjectionType)).toEqual(['ALL', 'KEYS_ONLY']);
      template().hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: gsis.map((gsi) => Match.objectLike(gsi)),
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
        Replicas: [
          Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
        ],
      });
    });

    it(stage === 'prod' ? 'retains and protects prod data' : 'lets the sandbox be torn down', () => {
      const retain = stageSettings[stage].retainData;
      const table = resources('AWS::DynamoDB::GlobalTable')[tableId()];
      const replicas = (table?.Properties.Replicas ?? []) as { DeletionProtectionEnabled?: boolean }[];

      expect(table?.DeletionPolicy).toBe(retain ? 'RetainExceptOnCreate' : 'Delete');
      expect(replicas.map((replica) => replica.DeletionProtectionEnabled ?? false)).toEqual([retain]);
    });

    it('keeps no resource with plain Retain: a rolled-back create leaves nothing that blocks the retry', () => {
      const policies = Object.entries(template().toJSON().Resources as Record<string, Resource>).filter(
        ([, resource]) => resource.DeletionPolicy !== undefined,
      );
      expect(
        policies.filter(([, resource]) => resource.DeletionPolicy === 'Retain').map(([id]) => id),
      ).toEqual([]);
      const logGroups = Object.values(resources('AWS::Logs::LogGroup'));
      expect(logGroups.length).toBeGreaterThan(5);
      for (const group of logGroups) {
        expect(group.DeletionPolicy).toBe(
          stageSettings[stage].retainData ? 'RetainExceptOnCreate' : 'Delete',
        );
      }
    });

    it('generates a 48-character alphanumeric cursor signing key', () => {
      template().hasResourceProperties('AWS::SecretsManager::Secret', {
        GenerateSecretString: { ExcludePunctuation: true, PasswordLength: 48 },
      });
    });
  });

  describe('ingest and jobs', () => {
    it('consumes vehicle-updates with the guidance worker, reporting failed items only', () => {
      template().hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: arnOf(vehicleUpdatesId()),
        FunctionName: ref(guidanceWorkerId()),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const queue = resources('AWS::SQS::Queue')[vehicleUpdatesId()];
      expect(queue?.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: arnOf(vehicleUpdatesDlqId()),
        maxReceiveCount: 5,
      });
    });

    it('runs the offline sweep every minute through EventBridge Scheduler', () => {
      // The sweep's and the daily health snapshot's (lib/jobs.ts), and on the sandbox the tick's,
      // on production the price freshness job's (lib/price-feed.ts).
      template().resourceCountIs('AWS::Scheduler::Schedule', 3);
      template().hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: `rate(${OFFLINE_SWEEP.rateMinutes} minute)`,
        FlexibleTimeWindow: { Mode: 'OFF' },
        GroupName: `fleet-fuel-${stage}-jobs`,
        Target: Match.objectLike({ Arn: arnOf(offlineSweepId()), RoleArn: arnOf(jobsSchedulerRoleId()) }),
      });
    });

    it('runs the sandbox tick every minute on the sandbox stage, and has no simulator on production', () => {
      if (stage === 'prod') {
        expect(stack().sandboxSimulator).toBeUndefined();
        return;
      }
      template().hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: `rate(${SANDBOX_TICK.rateMinutes} minute)`,
        FlexibleTimeWindow: { Mode: 'OFF' },
        GroupName: `fleet-fuel-${stage}-jobs`,
        Target: Match.objectLike({ Arn: arnOf(sandboxTickId()), RoleArn: arnOf(jobsSchedulerRoleId()) }),
      });
    });

    it('pages the alarm topic on both DLQs and on every worker’s errors', () => {
      const alarms = Object.values(resources('AWS::CloudWatch::Alarm'));
      const watched = (metricName: string) =>
        alarms
          .filter((alarm) => alarm.Properties.MetricName === metricName)
          .map((alarm) => {
            const [dimension] = alarm.Properties.Dimensions as { Value: unknown }[];
            return JSON.stringify(dimension?.Value);
          });

      // Both lags, the scheduled jobs, Lambda throttles, API latency and auth failures on every stage;
      // production adds the stale-price alarm, the price feed import's errors and the control table's,
      // the sandbox the tick's errors.
      expect(alarms).toHaveLength(stage === 'prod' ? 16 : 13);
      expect(watched('ApproximateAgeOfOldestMessage')).toHaveLength(2);
      expect(watched('Errors').sort()).toEqual(
        [
          dispatcherId(),
          guidanceWorkerId(),
          offlineSweepId(),
          ...(stage === 'prod' ? [priceFeedImportId()] : [sandboxTickId()]),
        ]
          .map((id) => JSON.stringify(ref(id)))
          .sort(),
      );
      expect(watched('ApproximateNumberOfMessagesVisible').sort()).toEqual(
        [deadLettersId(), vehicleUpdatesDlqId()]
          .map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'QueueName'] }))
          .sort(),
      );
      const topicId = logicalId(stack().alarms.topic);
      for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([ref(topicId)]);
    });

    it('pages exactly one alarm when a scheduled job fails, and one on any invocation Scheduler drops', () => {
      const alarms = Object.entries(resources('AWS::CloudWatch::Alarm'));
      type Stat = { MetricName: string; Dimensions: { Name: string; Value: unknown }[] };
      // Each alarm's metrics, whether it watches one metric or an expression over several.
      const metricsOf = (alarm: Resource): Stat[] => [
        ...(alarm.Properties.MetricName ? [alarm.Properties as unknown as Stat] : []),
        ...((alarm.Properties.Metrics as { MetricStat?: { Metric: Stat } }[] | undefined) ?? []).flatMap(
          (metric) => (metric.MetricStat ? [metric.MetricStat.Metric] : []),
        ),
      ];
      const alarmsOnErrorsOf = (functionId: string) =>
        alarms
          .filter(([, alarm]) =>
            metricsOf(alarm).some(
              (metric) =>
                metric.MetricName === 'Errors' &&
                JSON.stringify(metric.Dimensions[0]?.Value) === JSON.stringify(ref(functionId)),
            ),
          )
          .map(([id]) => id);
      const alarmId = (name: string) => logicalId(stack().alarms.node.findChild(name));

      // The scheduled jobs, and the import a dropped price file starts.
      const jobs: Record<string, string> = {
        OfflineSweepErrors: offlineSweepId(),
        ScheduledJobsFailing: healthSnapshotId(),
        ...(stage === 'prod'
          ? { PriceFeedImportFailed: priceFeedImportId() }
          : { SandboxTickErrors: sandboxTickId() }),
      };
      for (const [alarm, functionId] of Object.entries(jobs)) {
        expect(alarmsOnErrorsOf(functionId)).toEqual([alarmId(alarm)]);
      }
      if (stage === 'prod') {
        // The freshness job pages through its metric's silence, not its errors (StationPricesStale).
        expect(alarmsOnErrorsOf(priceFreshnessId())).toEqual([]);
        expect(
          resources('AWS::CloudWatch::Alarm')[alarmId('StationPricesStale')]?.Properties.TreatMissingData,
        ).toBe('breaching');
      }
      // Every schedule group of the stage: its dropped invocations page ScheduledJobsFailing, and only it.
      const groups = Object.values(resources('AWS::Scheduler::ScheduleGroup')).map(
        (group) => group.Properties.Name,
      );
      const dropped = alarms.flatMap(([id, alarm]) =>
        metricsOf(alarm)
          .filter((metric) => metric.MetricName === 'InvocationDroppedCount')
          .map((metric) => [id, metric.Dimensions[0]?.Value]),
      );
      expect(dropped.sort()).toEqual(groups.map((group) => [alarmId('ScheduledJobsFailing'), group]).sort());
    });
  });

  describe('price feed and readiness', () => {
    if (stage === 'sandbox') {
      it('has no price feed: no bucket, no import rule, no freshness job, no stale-price alarm, no readiness route', () => {
        expect(stack().priceFeed).toBeUndefined();
        template().resourceCountIs('AWS::S3::Bucket', 0);
        template().resourceCountIs('AWS::Events::Rule', 0);
        expect(Object.keys(template().findOutputs('PriceFeedBucketName'))).toEqual([]);
        const alarmNames = Object.keys(resources('AWS::CloudWatch::Alarm')).join(' ');
        expect(alarmNames).not.toMatch(/StationPricesStale|PriceFeedImportFailed/);
        const routeKeys = Object.values(resources('AWS::ApiGatewayV2::Route')).map(
          (r) => r.Properties.RouteKey,
        );
        expect(routeKeys).not.toContain('GET /admin/v1/readiness');
      });
      return;
    }

    it('has one price feed bucket, outputs its name, and hands its incoming/ and dry-run/ files to the import', () => {
      const bucketId = logicalId(priceFeed().bucket);
      expect(Object.keys(resources('AWS::S3::Bucket'))).toEqual([bucketId]);
      expect(template().findOutputs('PriceFeedBucketName').PriceFeedBucketName?.Value).toEqual(ref(bucketId));
      const rules = Object.values(resources('AWS::Events::Rule'));
      expect(rules).toHaveLength(1);
      expect(rules[0]?.Properties.EventPattern).toMatchObject({
        detail: {
          bucket: { name: [ref(bucketId)] },
          object: { key: [{ prefix: 'incoming/' }, { prefix: 'dry-run/' }] },
        },
      });
      expect(rules[0]?.Properties.Targets).toEqual([
        expect.objectContaining({ Arn: arnOf(priceFeedImportId()) }),
      ]);
      // EventBridge on the bucket itself: no notifications custom resource (nor its function).
      expect(Object.keys(resources('Custom::S3BucketNotifications'))).toEqual([]);
    });

    it('runs the freshness job every 15 minutes and pages when the newest price is older than the stage’s threshold or the job is silent', () => {
      template().hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: `rate(${PRICE_FRESHNESS.rateMinutes} minutes)`,
        GroupName: `fleet-fuel-${stage}-jobs`,
        Target: Match.objectLike({ Arn: arnOf(priceFreshnessId()), RoleArn: arnOf(jobsSchedulerRoleId()) }),
      });
      const stale = Object.values(resources('AWS::CloudWatch::Alarm')).find(
        (alarm) => alarm.Properties.MetricName === 'StationPriceAgeHours',
      );
      expect(stale?.Properties).toMatchObject({
        Namespace: 'FleetFuelGuidance',
        Dimensions: [
          { Name: 'service', Value: 'fleet-fuel-guidance' },
          { Name: 'stage', Value: stage },
        ],
        Statistic: 'Maximum',
        Threshold: stageSettings[stage].stalePriceHours,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'breaching',
        AlarmActions: [ref(logicalId(stack().alarms.topic))],
      });
    });

    it('lets the import read incoming/ and dry-run/, write reports/, and touch only the catalog’s table items', () => {
      const role = referencedId(resources('AWS::Lambda::Function')[priceFeedImportId()]?.Properties.Role);
      const statements = Object.values(resources('AWS::IAM::Policy'))
        .filter((policy) =>
          (policy.Properties.Roles as unknown[]).some((r) => !isImport(r) && referencedId(r) === role),
        )
        .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
      const text = (service: string) =>
        JSON.stringify(statements.filter((s) => asList(s.Action).some((a) => a.startsWith(`${service}:`))));

      expect(text('s3')).toContain('/incoming/*');
      expect(text('s3')).toContain('/dry-run/*');
      expect(text('s3')).toContain('/reports/*');
      expect(text('s3')).not.toContain('s3:DeleteObject');
      expect(text('dynamodb')).toContain('"dynamodb:LeadingKeys":["CATALOG#*"]');
      expect(text('dynamodb')).not.toContain('/index/');
      expect(text('geo-routes')).toBe('[]');
    });

    it('serves GET /admin/v1/readiness behind the IAM authorizer, with the bucket and the threshold in its environment', () => {
      const route = Object.values(resources('AWS::ApiGatewayV2::Route')).find(
        (r) => r.Properties.RouteKey === 'GET /admin/v1/readiness',
      );
      expect(route?.Properties.AuthorizationType).toBe('AWS_IAM');
      const readiness = resources('AWS::Lambda::Function')[functionId('getReadiness')];
      expect(readiness?.Properties.Environment).toMatchObject({
        Variables: {
          PRICE_FEED_BUCKET: ref(logicalId(priceFeed().bucket)),
          STALE_PRICE_HOURS: String(stageSettings.prod.stalePriceHours),
        },
      });
    });
  });
});

describe('CloudFormation’s limits', () => {
  let figures: StackFigures[];
  beforeAll(() => {
    const { app, outdir } = fixture.createApp();
    app.synth();
    figures = stackFigures(app, outdir);
    console.info(formatFigures(figures));
  }, 600_000);

  // Each route is four resources (function, permission, integration, route) in its feature's nested
  // stack (lib/api.ts); a stack at 60 % of a limit leaves room to grow before a deploy is refused.
  it('keeps every synthesized template, nested ones included, at or below 60 % of each limit', () => {
    // Both stages, the control plane and a nested stack per API feature (and the operator API).
    expect(figures.length).toBeGreaterThan(3 + new Set(servedRouteList.map((r) => r.tags[0])).size);
    const over = figures.flatMap((figure) =>
      (Object.keys(CLOUDFORMATION_LIMITS) as (keyof typeof CLOUDFORMATION_LIMITS)[])
        .filter((limit) => figure[limit] > CLOUDFORMATION_LIMITS[limit] * 0.6)
        .map((limit) => `${figure.template}: ${limit} ${figure[limit]} of ${CLOUDFORMATION_LIMITS[limit]}`),
    );
    expect(over).toEqual([]);
  });

  it('lists the same figures in docs/deploy-checks.md as the templates have', () => {
    expect(documentedFigures(repoRoot)).toEqual(figures.map(({ bytes: _, ...figure }) => figure));
  });
});

describe('each route’s nested stack', () => {
  // A route that moves to another feature's stack is created there before the old stack lets go of
  // it, and API Gateway refuses the second route with the same key: moving one takes two deploys
  // (docs/deploy-checks.md, "Moving a route"). This list makes a move a deliberate edit.
  it('is the one test/cdk/route-stacks.json names, so no route moves between stacks unnoticed', () => {
    const actual: Record<string, string[]> = {};
    for (const [operationId, fn] of stacks.prod.api.functions) {
      const stack = Stack.of(fn);
      if (!NestedStack.isNestedStack(stack)) continue;
      const feature = stack.node.id.replace(/Feature$/, '');
      actual[feature] = [...(actual[feature] ?? []), operationId].sort();
    }
    const frozen = JSON.parse(readFileSync(join(repoRoot, 'test/cdk/route-stacks.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    expect(actual).toEqual(frozen);
  });
});

describe('the control-plane stack', () => {
  let control: Template;
  beforeAll(() => {
    control = Template.fromStack(fixture.createApp().stages.control);
  });

  it('lets only the named operators assume the operators’ role, with MFA, and refuses to deploy without names', async () => {
    const { App } = await import('aws-cdk-lib');
    const named = ['arn:aws:iam::111111111111:user/alice', 'arn:aws:iam::111111111111:role/oncall'];
    const withNames = new ControlPlaneStack(new App(), 'ControlProbe', { operatorPrincipals: named });
    const trust = Object.values(Template.fromStack(withNames).findResources('AWS::IAM::Role'))[0] as Resource;
    const statements = (
      trust.Properties.AssumeRolePolicyDocument as {
        Statement: { Principal: { AWS: unknown }; Condition?: unknown }[];
      }
    ).Statement;
    expect(statements.map((statement) => statement.Principal.AWS)).toEqual(named);
    for (const statement of statements) {
      expect(statement.Condition).toEqual({
        Bool: { 'aws:MultiFactorAuthPresent': 'true' },
      });
    }

    // Without names (cdk.json sets none): an error, so neither synth nor `cdk deploy` goes through.
    const { context } = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context: object };
    const unnamed = new ControlPlaneStack(new App({ context }), 'ControlUnnamed', { operatorPrincipals: [] });
    expect(() => Template.fromStack(unnamed)).toThrow(/cdk deploy -c operatorPrincipals=/);
  });

  it('reads the operators from the context as IAM user or role ARNs, and refuses anything else', () => {
    expect(parseOperatorPrincipals(undefined)).toEqual([]);
    expect(
      parseOperatorPrincipals(' arn:aws:iam::111111111111:user/alice , arn:aws:iam::111111111111:role/x '),
    ).toEqual(['arn:aws:iam::111111111111:user/alice', 'arn:aws:iam::111111111111:role/x']);
    expect(() => parseOperatorPrincipals('arn:aws:iam::111111111111:root')).toThrow(
      /not an IAM user or role ARN/,
    );
    expect(() => parseOperatorPrincipals('alice')).toThrow(/operatorPrincipals/);
  });

  it('holds one table keyed like the stage tables, retained and protected whatever happens to the stack', () => {
    const tables = control.findResources('AWS::DynamoDB::GlobalTable') as Record<string, Resource>;
    expect(Object.values(tables)).toHaveLength(1);
    const [table] = Object.values(tables);
    expect(table?.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(table?.Properties.KeySchema).toEqual([
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ]);
    expect(JSON.stringify(table?.Properties.Replicas)).toContain('"DeletionProtectionEnabled":true');
  });

  it('has the operators’ role, assumable by the named operator with MFA, and outputs it with the table', () => {
    const roles = Object.values(control.findResources('AWS::IAM::Role') as Record<string, Resource>);
    expect(roles).toHaveLength(1);
    const trust = JSON.stringify(roles[0]?.Properties.AssumeRolePolicyDocument);
    expect(trust).toContain(TEST_OPERATOR);
    expect(trust).not.toContain(':root');
    expect(trust).toContain('"aws:MultiFactorAuthPresent":"true"');
    // Besides the exports CDK adds for the stages' references.
    const outputs = Object.keys(control.findOutputs('*')).filter((name) => !name.startsWith('ExportsOutput'));
    expect(outputs.sort()).toEqual(['ControlTableName', 'OperatorRoleArn']);
    expect(fixture.createApp().stages.control.terminationProtection).toBe(true);
  });
});

describe('the route table as API Gateway sees it', () => {
  it('names each path variable the same wherever routes share a position', () => {
    // API Gateway refuses `/v1/vehicles/{id}` beside `/v1/vehicles/{vehicleId}/…` with a 409
    // ConflictException at deploy time; synth would not notice.
    const namesAt = new Map<string, Set<string>>();
    for (const { path } of servedRouteList) {
      const segments = path.split('/');
      segments.forEach((segment, index) => {
        const variable = /^\{(.+)\}$/.exec(segment)?.[1];
        if (!variable) return;
        const position = segments
          .slice(0, index)
          .map((s) => (s.startsWith('{') ? '{}' : s))
          .join('/');
        namesAt.set(position, (namesAt.get(position) ?? new Set()).add(variable));
      });
    }
    const conflicts = [...namesAt]
      .filter(([, names]) => names.size > 1)
      .map(([at, names]) => `${at}/{${[...names]}}`);

    expect(conflicts).toEqual([]);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing that is not acknowledged with a reason', () => {
    const { app, outdir } = fixture.createApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

    let failure: unknown;
    try {
      app.synth();
    } catch (error) {
      failure = error;
    }

    const report = join(outdir, 'validation-report.json');
    const findings = existsSync(report) ? summarizeFindings(readFileSync(report, 'utf8')) : [];
    expect(findings).toEqual([]);
    expect(failure).toBeUndefined();
  });
});

describe('cfn-lint', () => {
  it.runIf(cfnLintInstalled())(
    'finds no error in any template, and only the warnings docs/deploy-checks.md explains',
    () => {
      const { app, outdir } = fixture.createApp();
      app.synth();
      const findings = lintTemplates(outdir) ?? [];
      const described = (f: CfnLintFinding) => `${f.rule} ${f.template}: ${f.message}`;
      expect(findings.filter((finding) => finding.level === 'Error').map(described)).toEqual([]);
      const warnings = new Set(
        findings.filter((finding) => finding.level === 'Warning').map((finding) => finding.rule),
      );
      // Every warning is explained, and every explanation still has its warning (no stale rows).
      expect([...warnings].sort()).toEqual([...acceptedWarnings(repoRoot)].sort());
    },
    // One cfn-lint run over ~40 templates: ~20 s on an idle machine, minutes on a loaded one.
    600_000,
  );
});

/** `rule at construct path`, one per unacknowledged finding, so a failure names what to fix. */
function summarizeFindings(reportJson: string): string[] {
  const report = JSON.parse(reportJson) as {
    pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
  };
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((violation) =>
      violation.violatingConstructs.map((construct) => `${violation.ruleName} at ${construct.constructPath}`),
    ),
  );
}

describe('routing engine switch', () => {
  it('grants geo-routes:CalculateRoutes on the provider to the routing roles only when a stage routes with Amazon Location', async () => {
    const { App, Stack } = await import('aws-cdk-lib');
    const { Template } = await import('aws-cdk-lib/assertions');
    const { TableV2, AttributeType } = await import('aws-cdk-lib/aws-dynamodb');
    const { ExecutionRoles } = await import('#lib/execution-roles.ts');
    const policyFor = (routingEngine: 'embedded' | 'amazon-location', group: ExecutionRoleGroup) => {
      const stack = new Stack(new App(), 'RolesProbe', {
        env: { account: '111111111111', region: 'us-east-1' },
      });
      const table = new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
      new ExecutionRoles(stack, 'Roles', {
        table,
        controlTable: table,
        functionLogPrefix: '/probe/',
        routingEngine,
      }).roleFor(group);
      return JSON.stringify(Template.fromStack(stack).findResources('AWS::IAM::Policy'));
    };
    expect(policyFor('embedded', 'api')).not.toContain('geo-routes');
    expect(policyFor('embedded', 'guidance-worker')).not.toContain('geo-routes');
    for (const group of ['api', 'guidance-worker'] as const) {
      const amazon = policyFor('amazon-location', group);
      expect(amazon, group).toContain('geo-routes:CalculateRoutes');
      expect(amazon, group).toContain(':geo-routes:us-east-1::provider/default');
    }
    // The sweep and the dispatcher never route.
    expect(policyFor('amazon-location', 'offline-sweep')).not.toContain('geo-routes');
    expect(policyFor('amazon-location', 'webhook-dispatcher')).not.toContain('geo-routes');
  });
});
