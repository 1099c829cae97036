import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { STATION_PRICE_AGE_METRIC } from '../shared/platform/price-feed-metrics.ts';
import { USAGE_METRICS_NAMESPACE } from '../shared/platform/usage-metrics.ts';
import { PRICE_FRESHNESS_RATE } from './price-feed.ts';
import { SERVICE_NAME } from './service-environment.ts';

export interface AlarmsProps {
  stage: string;
  httpApiId: string;
  /** The webhook deliveries DLQ. */
  deadLetters: IQueue;
  dispatcher: IFunction;
  table: ITableV2;
  /** The vehicle-updates DLQ. */
  vehicleUpdatesDeadLetters: IQueue;
  guidanceWorker: IFunction;
  offlineSweep: IFunction;
  /** The queues whose oldest message is the guidance lag and the webhook lag. */
  vehicleUpdates: IQueue;
  deliveries: IQueue;
  /** The daily health snapshot job. */
  healthSnapshot: IFunction;
  /** The schedule groups whose invocations Scheduler could drop: the jobs and the webhook retries. */
  scheduleGroups: readonly string[];
  /** Production only (lib/price-feed.ts): the stale-price and failed-import alarms. */
  priceFeed?: { importer: IFunction; stalePriceHours: number };
}

/**
 * What pages the on-call operator: each alarm is a symptom an integrator would feel. All notify
 * one topic per stage; subscribe a pager or an email to it after deploying.
 */
export class Alarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', {
      displayName: `Fleet fuel ${props.stage} alarms`,
      // cdk-nag AwsSolutions-SNS3: publishers are CloudWatch alarms in this account only.
      enforceSSL: true,
    });
    const period = Duration.minutes(5);
    const add = (name: string, description: string, alarm: Omit<AlarmProps, 'alarmDescription'>) => {
      const created = new Alarm(this, name, { ...alarm, alarmDescription: description });
      created.addAlarmAction(new SnsAction(this.topic));
      this.alarms.push(created);
    };

    add(
      'DeliveriesDeadLettered',
      'Webhook deliveries exhausted every retry (or the dispatcher kept failing) and reached the DLQ.',
      {
        metric: props.deadLetters.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'DispatcherErrors',
      'The webhook dispatcher failed whole invocations (our fault, not a receiver’s).',
      {
        metric: props.dispatcher.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'VehicleUpdatesDeadLettered',
      'Vehicle updates failed in the guidance worker five times and reached the DLQ: those vehicles’ ' +
        'guidance is stale until the fault is fixed and the DLQ redriven.',
      {
        metric: props.vehicleUpdatesDeadLetters.metricApproximateNumberOfMessagesVisible({
          period,
          statistic: 'Maximum',
        }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'GuidanceWorkerErrors',
      'The guidance worker failed whole invocations (every record of a batch, or the function itself).',
      {
        metric: props.guidanceWorker.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    // Five runs per period: one failed run is retried by the next minute's, most of them failing is not.
    add(
      'OfflineSweepErrors',
      'Most offline sweeps of the last 5 minutes failed: silent vehicles are not being marked offline.',
      {
        metric: props.offlineSweep.metricErrors({ period, statistic: 'Sum' }),
        threshold: 3,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add('Api5xx', 'The API answered 5xx to integrators (internal errors, auth store, routing capacity).', {
      metric: new Metric({
        namespace: 'AWS/ApiGateway',
        metricName: '5xx',
        dimensionsMap: { ApiId: props.httpApiId },
        period,
        statistic: 'Sum',
      }),
      threshold: 10,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    // DynamoDB publishes ThrottledRequests per operation only; the read and write throttle events
    // carry the table alone, so their sum is every throttled request on the table (and its indexes'
    // own events are published apart, under GlobalSecondaryIndexName).
    const throttleEvents = (metricName: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: props.table.tableName },
        period,
        statistic: 'Sum',
      });
    add(
      'TableThrottles',
      'DynamoDB throttled requests: on-demand capacity is ramping or a partition is hot.',
      {
        metric: new MathExpression({
          expression: 'FILL(reads, 0) + FILL(writes, 0)',
          usingMetrics: {
            reads: throttleEvents('ReadThrottleEvents'),
            writes: throttleEvents('WriteThrottleEvents'),
          },
          period,
          label: 'Throttled reads and writes',
        }),
        threshold: 1,
        evaluationPeriods: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'GuidanceLag',
      'The oldest vehicle update has waited over 2 minutes: trucks’ guidance and events are late.',
      {
        metric: props.vehicleUpdates.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
        threshold: 120,
        evaluationPeriods: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'WebhookLag',
      'The oldest webhook delivery has waited over 10 minutes to be attempted: receivers hear late.',
      {
        metric: props.deliveries.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
        threshold: 600,
        evaluationPeriods: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    add(
      'ScheduledJobsFailing',
      'A scheduled job failed: the daily health snapshot, or Scheduler dropped an invocation of a job or a webhook retry.',
      {
        metric: new MathExpression({
          expression: `FILL(snapshot, 0) + ${props.scheduleGroups.map((_, i) => `FILL(dropped${i}, 0)`).join(' + ')}`,
          usingMetrics: {
            snapshot: props.healthSnapshot.metricErrors({ period, statistic: 'Sum' }),
            ...Object.fromEntries(
              props.scheduleGroups.map((group, i) => [
                `dropped${i}`,
                new Metric({
                  namespace: 'AWS/Scheduler',
                  metricName: 'InvocationDroppedCount',
                  dimensionsMap: { ScheduleGroup: group },
                  period,
                  statistic: 'Sum',
                }),
              ]),
            ),
          },
          period,
          label: 'Failed snapshots and dropped invocations',
        }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    if (props.priceFeed) this.addPriceFeedAlarms(props.stage, props.priceFeed, add);
  }

  private addPriceFeedAlarms(
    stage: string,
    priceFeed: NonNullable<AlarmsProps['priceFeed']>,
    add: (name: string, description: string, alarm: Omit<AlarmProps, 'alarmDescription'>) => void,
  ): void {
    add(
      'StationPricesStale',
      `The newest station price is older than ${priceFeed.stalePriceHours} hours, or the freshness job ` +
        'reported nothing: the price feed stopped (docs/operations.md, StationPricesStale).',
      {
        metric: new Metric({
          namespace: USAGE_METRICS_NAMESPACE,
          metricName: STATION_PRICE_AGE_METRIC,
          // Powertools adds the service to every data point's dimensions.
          dimensionsMap: { service: SERVICE_NAME, stage },
          // Two runs of the job per period, so one late run does not read as missing data.
          period: PRICE_FRESHNESS_RATE.plus(PRICE_FRESHNESS_RATE),
          statistic: 'Maximum',
        }),
        threshold: priceFeed.stalePriceHours,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        // A job that stopped reporting must not hide stale prices.
        treatMissingData: TreatMissingData.BREACHING,
      },
    );
    add(
      'PriceFeedImportFailed',
      'A price file import failed on infrastructure (table, bucket, timeout; a refused file is not a ' +
        'failure): the file may be unprocessed (docs/operations.md, PriceFeedImportFailed).',
      {
        metric: priceFeed.importer.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
  }
}
