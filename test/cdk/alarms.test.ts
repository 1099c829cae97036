import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Alarms } from '../../lib/alarms.ts';

type Resource = { Properties: Record<string, unknown> };

/** The construct alone, in a probe stack with stand-in queues and functions. */
let stack: Stack;
let template: Template;
let alarms: Alarms;
let vehicleUpdatesDlq: Queue;
let guidanceWorker: LambdaFunction;
let offlineSweep: LambdaFunction;
let priceFeedImport: LambdaFunction;

beforeAll(() => {
  stack = new Stack(new App(), 'AlarmsProbe');
  const table = new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  const fn = (id: string) =>
    new LambdaFunction(stack, id, {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = async () => {};'),
    });
  vehicleUpdatesDlq = new Queue(stack, 'VehicleUpdatesDlq');
  guidanceWorker = fn('GuidanceWorker');
  offlineSweep = fn('OfflineSweep');
  priceFeedImport = fn('PriceFeedImport');
  alarms = new Alarms(stack, 'Alarms', {
    stage: 'prod',
    httpApiId: 'api123',
    deadLetters: new Queue(stack, 'DeliveriesDlq'),
    dispatcher: fn('Dispatcher'),
    table,
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
});

const id = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);
const alarmNamed = (name: string) => {
  const alarm = alarms.node.findChild(name);
  return template.findResources('AWS::CloudWatch::Alarm')[id(alarm)] as Resource;
};

describe('alarms', () => {
  it('pages one topic on both DLQs, both queues’ lag, each worker’s and job’s errors, API 5xx, table throttles and stale prices', () => {
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
      'StationPriceAgeHours',
      'expression',
      'expression',
    ]);
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
