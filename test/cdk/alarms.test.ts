import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Alarms, CONTROL_TABLE_OPERATIONS } from '#lib/alarms.ts';

type Resource = { Properties: Record<string, unknown> };
type MetricStat = {
  Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: unknown }[] };
};
type MetricEntry = { Id: string; Expression?: string; MetricStat?: MetricStat };

/**
 * The construct alone, in probe stacks with stand-in queues and functions: production's shape (price
 * feed, the control table) and the sandbox's (the simulator's tick). Breadcrumb ingest sits in a nested
 * stack, as the API's route functions do.
 */
let stack: Stack;
let template: Template;
let alarms: Alarms;
let vehicleUpdatesDlq: Queue;
let guidanceWorker: LambdaFunction;
let offlineSweep: LambdaFunction;
let priceFeedImport: LambdaFunction;
let dispatcher: LambdaFunction;
let ingest: LambdaFunction;
let ingestStack: NestedStack;
let guidanceRead: LambdaFunction;
let controlTable: TableV2;
let sandbox: { stack: Stack; template: Template; alarms: Alarms; tick: LambdaFunction };

const inlineFunction = (scope: Stack, id: string) =>
  new LambdaFunction(scope, id, {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => {};'),
  });

/** The props every stage passes, made in `scope`. */
function commonProps(scope: Stack, stage: string) {
  const fn = (id: string) => inlineFunction(scope, id);
  return {
    stage,
    httpApiId: 'api123',
    deadLetters: new Queue(scope, 'DeliveriesDlq'),
    dispatcher: fn('Dispatcher'),
    table: new TableV2(scope, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }),
    vehicleUpdatesDeadLetters: new Queue(scope, 'VehicleUpdatesDlq'),
    guidanceWorker: fn('GuidanceWorker'),
    offlineSweep: fn('OfflineSweep'),
    vehicleUpdates: new Queue(scope, 'VehicleUpdates'),
    deliveries: new Queue(scope, 'Deliveries'),
    healthSnapshot: fn('HealthSnapshot'),
    scheduleGroups: [`fleet-fuel-${stage}-jobs`, `fleet-fuel-${stage}-webhook-retries`],
    ingest: fn('Ingest'),
    guidanceRead: fn('GuidanceRead'),
  };
}

beforeAll(() => {
  const app = new App();
  stack = new Stack(app, 'AlarmsProbe');
  const fn = (id: string) => inlineFunction(stack, id);
  vehicleUpdatesDlq = new Queue(stack, 'VehicleUpdatesDlq');
  guidanceWorker = fn('GuidanceWorker');
  offlineSweep = fn('OfflineSweep');
  priceFeedImport = fn('PriceFeedImport');
  dispatcher = fn('Dispatcher');
  guidanceRead = fn('GuidanceRead');
  ingestStack = new NestedStack(stack, 'Locations');
  ingest = inlineFunction(ingestStack as Stack, 'Ingest');
  controlTable = new TableV2(new Stack(app, 'ControlProbe'), 'Control', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
  });
  alarms = new Alarms(stack, 'Alarms', {
    stage: 'prod',
    httpApiId: 'api123',
    deadLetters: new Queue(stack, 'DeliveriesDlq'),
    dispatcher,
    ingest,
    guidanceRead,
    controlTable,
    table: new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }),
    vehicleUpdatesDeadLetters: vehicleUpdatesDlq,
    guidanceWorker,
    offlineSweep,
    vehicleUpdates: new Queue(stack, 'VehicleUpdates'),
    deliveries: new Queue(stack, 'Deliveries'),
    healthSnapshot: fn('HealthSnapshot'),
    scheduleGroups: ['fleet-fuel-prod-jobs', 'fleet-fuel-prod-webhook-retries'],
    priceFeed: { importer: priceFeedImport, stalePriceHours: 36 },
  });
  template = Template.fromStack(stack);

  const sandboxStack = new Stack(new App(), 'SandboxAlarmsProbe');
  const tick = inlineFunction(sandboxStack, 'SandboxTick');
  const sandboxAlarms = new Alarms(sandboxStack, 'Alarms', {
    ...commonProps(sandboxStack, 'sandbox'),
    sandboxTick: tick,
  });
  sandbox = { stack: sandboxStack, template: Template.fromStack(sandboxStack), alarms: sandboxAlarms, tick };
});

const id = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);
const alarmNamed = (name: string) => {
  const alarm = alarms.node.findChild(name);
  return template.findResources('AWS::CloudWatch::Alarm')[id(alarm)] as Resource;
};
const metricsOf = (alarm: Resource) => alarm.Properties.Metrics as MetricEntry[];
const statsOf = (alarm: Resource) =>
  metricsOf(alarm).flatMap((metric) => (metric.MetricStat ? [metric.MetricStat.Metric] : []));

describe('alarms', () => {
  it('pages one topic on both DLQs, both queues’ lag, each worker’s and job’s errors, API 5xx and latency, throttles, auth failures and stale prices', () => {
    template.resourceCountIs('AWS::SNS::Topic', 1);
    const all = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[];

    // Alarms on a metric expression name no MetricName of their own (their Metrics list does).
    expect(all.map((a) => String(a.Properties.MetricName ?? 'expression')).sort()).toEqual([
      '5xx',
      'ApproximateAgeOfOldestMessage',
      'ApproximateAgeOfOldestMessage',
      'ApproximateNumberOfMessagesVisible',
      'ApproximateNumberOfMessagesVisible',
      'Errors',
      'Errors',
      'Errors',
      'Errors',
      'Latency',
      'ProblemResponses',
      'StationPriceAgeHours',
      'expression',
      'expression',
      'expression',
      'expression',
    ]);
    expect(alarms.alarms).toHaveLength(all.length);
    const stale = alarmNamed('StationPricesStale');
    for (const alarm of all) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: id(alarms.topic) }]);
      // No traffic is no trouble, except for the freshness job: its silence could hide stale prices.
      expect(alarm.Properties.TreatMissingData).toBe(alarm === stale ? 'breaching' : 'notBreaching');
      expect(alarm.Properties.AlarmDescription).toEqual(expect.any(String));
    }
  });

  it('pages when the newest station price is older than the stage’s threshold, or when the freshness job is silent', () => {
    expect(alarmNamed('StationPricesStale').Properties).toMatchObject({
      Namespace: 'FleetFuelGuidance',
      MetricName: 'StationPriceAgeHours',
      // Exactly the dimensions the job's data points carry (test/unit/platform/price-feed-metrics.test.ts).
      Dimensions: [
        { Name: 'service', Value: 'fleet-fuel-guidance' },
        { Name: 'stage', Value: 'prod' },
      ],
      Statistic: 'Maximum',
      // Two 15-minute runs per period.
      Period: 1800,
      Threshold: 36,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'breaching',
    });
  });

  it('pages on every failed price file import (a refused file is not a failure)', () => {
    expect(alarmNamed('PriceFeedImportFailed').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: id(priceFeedImport) } }],
      Statistic: 'Sum',
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('pages on the first vehicle update in its DLQ', () => {
    expect(alarmNamed('VehicleUpdatesDeadLettered').Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id(vehicleUpdatesDlq), 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('pages on guidance worker errors in two periods running, as for the dispatcher', () => {
    expect(alarmNamed('GuidanceWorkerErrors').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: id(guidanceWorker) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      EvaluationPeriods: 2,
    });
  });

  it('pages when most of five minutes’ offline sweeps fail, not on one that the next run repairs', () => {
    expect(alarmNamed('OfflineSweepErrors').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: id(offlineSweep) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 3,
      EvaluationPeriods: 1,
    });
  });

  it('counts table throttles from the metrics DynamoDB publishes per table (ThrottledRequests is per operation only)', () => {
    const metrics = alarmNamed('TableThrottles').Properties.Metrics as {
      Id: string;
      Expression?: string;
      MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string }[] } };
    }[];
    const stats = metrics.filter((metric) => metric.MetricStat).map((metric) => metric.MetricStat?.Metric);
    expect(stats.map((metric) => metric?.MetricName).sort()).toEqual([
      'ReadThrottleEvents',
      'WriteThrottleEvents',
    ]);
    for (const metric of stats) expect(metric?.Dimensions.map((d) => d.Name)).toEqual(['TableName']);
    expect(metrics.find((metric) => metric.Expression)?.Expression).toBe('FILL(reads, 0) + FILL(writes, 0)');
  });

  it('pages when guidance or webhooks lag: the oldest message older than 2 and 10 minutes, twice running', () => {
    expect(alarmNamed('GuidanceLag').Properties).toMatchObject({
      MetricName: 'ApproximateAgeOfOldestMessage',
      Namespace: 'AWS/SQS',
      Threshold: 120,
      EvaluationPeriods: 2,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(alarmNamed('WebhookLag').Properties).toMatchObject({ Threshold: 600, EvaluationPeriods: 2 });
  });

  it('pages on a failed health snapshot and on any invocation Scheduler drops, in either schedule group', () => {
    const metrics = alarmNamed('ScheduledJobsFailing').Properties.Metrics as {
      MetricStat?: {
        Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: unknown }[] };
      };
    }[];
    const dropped = metrics
      .map((metric) => metric.MetricStat?.Metric)
      .filter((metric) => metric?.MetricName === 'InvocationDroppedCount');
    expect(dropped.map((metric) => metric?.Dimensions[0]?.Value)).toEqual([
      'fleet-fuel-prod-jobs',
      'fleet-fuel-prod-webhook-retries',
    ]);
    expect(metrics.some((metric) => metric.MetricStat?.Metric.MetricName === 'Errors')).toBe(true);
  });
});

describe('capacity and auth alarms', () => {
  it('pages when Lambda throttles breadcrumb ingest, the guidance read, the guidance worker or the dispatcher, in two periods running', () => {
    const alarm = alarmNamed('LambdaThrottles');
    expect(alarm.Properties).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const stats = statsOf(alarm);
    // CloudWatch refuses an alarm on more than 10 metrics.
    expect(metricsOf(alarm).length).toBeLessThanOrEqual(10);
    for (const metric of stats) {
      expect(metric).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles' });
      expect(metric.Dimensions.map((d) => d.Name)).toEqual(['FunctionName']);
    }
    const names = stats.map((metric) => metric.Dimensions[0]?.Value);
    expect(names.slice(1)).toEqual([
      { Ref: id(guidanceRead) },
      { Ref: id(guidanceWorker) },
      { Ref: id(dispatcher) },
    ]);
    // Ingest lives in a nested stack: its name comes up as that stack's output.
    const [nestedId, output] = (names[0] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    expect(nestedId).toBe(stack.getLogicalId(ingestStack.nestedStackResource as never));
    expect(output).toMatch(/^Outputs\./);
    expect(metricsOf(alarm).find((metric) => metric.Expression)?.Expression).toBe(
      'FILL(ingest, 0) + FILL(guidanceRead, 0) + FILL(guidanceWorker, 0) + FILL(dispatcher, 0)',
    );
  });

  it('pages when the API’s p99 latency stays above half a route’s 10 s timeout for 15 minutes', () => {
    expect(alarmNamed('ApiLatency').Properties).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      Dimensions: [{ Name: 'ApiId', Value: 'api123' }],
      ExtendedStatistic: 'p99',
      Period: 300,
      Threshold: 5000,
      EvaluationPeriods: 3,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(alarmNamed('ApiLatency').Properties.Statistic).toBeUndefined();
  });

  it('pages on API 5xx over the whole API', () => {
    expect(alarmNamed('Api5xx').Properties).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: 'api123' }],
      Statistic: 'Sum',
      Threshold: 10,
    });
  });

  it('pages on five auth_unavailable answers in 5 minutes, counted by the dimensions the functions publish', () => {
    expect(alarmNamed('AuthUnavailable').Properties).toMatchObject({
      Namespace: 'FleetFuelGuidance',
      MetricName: 'ProblemResponses',
      // Exactly the dimension set of emitProblem's data points (test/unit/platform/usage-metrics.test.ts).
      Dimensions: [
        { Name: 'code', Value: 'auth_unavailable' },
        { Name: 'service', Value: 'fleet-fuel-guidance' },
        { Name: 'stage', Value: 'prod' },
      ],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 5,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('pages on the control table’s throttle events and its system errors of every operation the functions send', () => {
    const alarm = alarmNamed('ControlTableErrors');
    expect(alarm.Properties).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 2,
      TreatMissingData: 'notBreaching',
    });
    expect(metricsOf(alarm).length).toBeLessThanOrEqual(10);
    const stats = statsOf(alarm);
    const dimension = (metric: MetricStat['Metric'], name: string) =>
      metric.Dimensions.find((d) => d.Name === name)?.Value;
    const tableName = JSON.stringify(dimension(stats[0] as MetricStat['Metric'], 'TableName'));
    // The control stack's table, imported by name.
    expect(tableName).toContain('Fn::ImportValue');
    expect(tableName).toContain('ControlProbe');
    for (const metric of stats) {
      expect(metric.Namespace).toBe('AWS/DynamoDB');
      expect(JSON.stringify(dimension(metric, 'TableName'))).toBe(tableName);
    }
    // The throttle events carry the table alone; SystemErrors exists per operation only.
    expect(
      stats
        .filter((m) => m.MetricName.endsWith('ThrottleEvents'))
        .map((m) => m.Dimensions.map((d) => d.Name)),
    ).toEqual([['TableName'], ['TableName']]);
    const systemErrors = stats.filter((m) => m.MetricName === 'SystemErrors');
    expect(systemErrors.map((m) => m.Dimensions.map((d) => d.Name).sort())).toEqual(
      CONTROL_TABLE_OPERATIONS.map(() => ['Operation', 'TableName']),
    );
    expect(systemErrors.map((m) => dimension(m, 'Operation'))).toEqual([...CONTROL_TABLE_OPERATIONS]);
    expect(metricsOf(alarm).find((metric) => metric.Expression)?.Expression).toMatch(
      /^FILL\(reads, 0\) \+ FILL\(writes, 0\) \+ FILL\(errorsGetItem, 0\)/,
    );
  });
});

describe('the sandbox stage’s alarms', () => {
  const sandboxAlarm = (name: string) =>
    sandbox.template.findResources('AWS::CloudWatch::Alarm')[
      sandbox.stack.getLogicalId(sandbox.alarms.node.findChild(name).node.defaultChild as never)
    ] as Resource;

  it('pages when most of five minutes’ sandbox ticks fail, as for the offline sweep', () => {
    expect(sandboxAlarm('SandboxTickErrors').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [
        {
          Name: 'FunctionName',
          Value: { Ref: sandbox.stack.getLogicalId(sandbox.tick.node.defaultChild as never) },
        },
      ],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 3,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it('has no price feed alarms, no latency alarm (its advance runs 28 s by design) and leaves the control table to production, which pages once for both', () => {
    const names = sandbox.alarms.node.children.map((child) => child.node.id);
    for (const name of ['StationPricesStale', 'PriceFeedImportFailed', 'ControlTableErrors', 'ApiLatency']) {
      expect(names).not.toContain(name);
    }
    expect(names).toEqual(expect.arrayContaining(['LambdaThrottles', 'AuthUnavailable']));
    expect(sandboxAlarm('AuthUnavailable').Properties.Dimensions).toContainEqual({
      Name: 'stage',
      Value: 'sandbox',
    });
    // Production's probe has no tick.
    expect(alarms.node.tryFindChild('SandboxTickErrors')).toBeUndefined();
  });
});
