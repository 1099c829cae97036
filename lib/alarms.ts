import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  type IMetric,
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
import { FUNCTION_DEFAULTS } from './function-defaults.ts';
import {
  apiGatewayMetric,
  problemResponses,
  stationPriceAge,
  tableThrottleEvents,
} from './operations-metrics.ts';
import { PRICE_FRESHNESS_RATE } from './price-feed.ts';

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
  /** Breadcrumb ingest (`POST /v1/locations`) and the guidance read (`GET …/guidance`): throttles watched. */
  ingest: IFunction;
  guidanceRead: IFunction;
  /** Sandbox stage only (lib/sandbox.ts): the simulator's tick, every minute. */
  sandboxTick?: IFunction;
  /**
   * The control-plane table, which every request's key check reads. Given to one stage only
   * (production), so its throttles and system errors page once although both stages read it.
   */
  controlTable?: ITableV2;
}

/**
 * The API's p99 latency that pages: half of a route's timeout (10 s). A request that slow spent most of
 * its time waiting on a dependency, and the bounded AWS calls give up after 7 s at worst
 * (shared/platform/adapters/aws-call-limits.ts); the heaviest call, a 500-breadcrumb POST, measured a
 * p99 near 1 s (docs/scaling.md).
 */
export const API_LATENCY_P99_THRESHOLD = FUNCTION_DEFAULTS.httpTimeout.toMilliseconds() / 2;

/**
 * The control table's operations whose system errors page: every operation the functions send to it
 * (DynamoDB publishes SystemErrors per operation only, and an alarm reads at most 10 metrics).
 */
export const CONTROL_TABLE_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'TransactWriteItems',
] as const;

/** The sum of several metrics, a missing data point counting as 0 (no event in that period). */
function sumOf(usingMetrics: Record<string, IMetric>, label: string, period: Duration): MathExpression {
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((name) => `FILL(${name}, 0)`)
      .join(' + '),
    usingMetrics,
    period,
    label,
  });
}

type AddAlarm = (name: string, description: string, alarm: Omit<AlarmProps, 'alarmDescription'>) => void;

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
    const add: AddAlarm = (name, description, alarm) => {
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
      metric: apiGatewayMetric(props.httpApiId, '5xx', { period, statistic: 'Sum' }),
      threshold: 10,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    // DynamoDB publishes ThrottledRequests per operation only; the read and write throttle events
    // carry the table alone, so their sum is every throttled request on the table (and its indexes'
    // own events are published apart, under GlobalSecondaryIndexName).
    const throttleEvents = (metricName: 'ReadThrottleEvents' | 'WriteThrottleEvents') =>
      tableThrottleEvents(props.table.tableName, metricName, period);
    add(
      'TableThrottles',
      'DynamoDB throttled requests: on-demand capacity is ramping or a partition is hot.',
      {
        metric: sumOf(
          { reads: throttleEvents('ReadThrottleEvents'), writes: throttleEvents('WriteThrottleEvents') },
          'Throttled reads and writes',
          period,
        ),
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
        metric: sumOf(
          {
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
          'Failed snapshots and dropped invocations',
          period,
        ),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    if (props.priceFeed) this.addPriceFeedAlarms(props.stage, props.priceFeed, add);
    this.addCapacityAlarms(props, add);
    if (props.sandboxTick) {
      // As for the offline sweep: a failed tick is repaired by the next minute's, most of them failing is not.
      add(
        'SandboxTickErrors',
        'Most sandbox ticks of the last 5 minutes failed: simulated trucks stand still (docs/operations.md).',
        {
          metric: props.sandboxTick.metricErrors({ period, statistic: 'Sum' }),
          threshold: 3,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        },
      );
    }
  }

  /** Throttled functions, a slow API, and an auth store that cannot answer. */
  private addCapacityAlarms(props: AlarmsProps, add: AddAlarm): void {
    const period = Duration.minutes(5);
    // Per function, not the account-wide Throttles (no dimension): that one mixes both stages and
    // anything else in the account, so it cannot say which stage to look at. These four are what
    // trucks and receivers feel first; an alarm reads at most 10 metrics.
    const watched = {
      ingest: props.ingest,
      guidanceRead: props.guidanceRead,
      guidanceWorker: props.guidanceWorker,
      dispatcher: props.dispatcher,
    };
    add(
      'LambdaThrottles',
      'Lambda throttled breadcrumb ingest, the guidance read, the guidance worker or the webhook dispatcher: ' +
        'a reserved or account concurrency limit is reached (docs/operations.md, LambdaThrottles).',
      {
        metric: sumOf(
          Object.fromEntries(
            Object.entries(watched).map(([name, fn]) => [
              name,
              fn.metricThrottles({ period, statistic: 'Sum' }),
            ]),
          ),
          'Throttled invocations',
          period,
        ),
        threshold: 1,
        evaluationPeriods: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    // Production only: the sandbox's POST /v1/sandbox/advance runs up to 28 s by design, so a
    // developer looping it would hold the sandbox's p99 above any threshold that matters.
    if (props.stage === 'prod') {
      add(
        'ApiLatency',
        `The API's p99 latency stayed above ${API_LATENCY_P99_THRESHOLD / 1000} s for 15 minutes: ` +
          'integrators wait on a slow dependency (docs/operations.md, ApiLatency).',
        {
          metric: apiGatewayMetric(props.httpApiId, 'Latency', { period, statistic: 'p99' }),
          threshold: API_LATENCY_P99_THRESHOLD,
          evaluationPeriods: 3,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        },
      );
    }
    add(
      'AuthUnavailable',
      'Requests were answered 503 auth_unavailable: their API key, plan or account could not be read ' +
        '(docs/operations.md, AuthUnavailable).',
      {
        metric: problemResponses(props.stage, 'auth_unavailable', period),
        threshold: 5,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      },
    );
    if (props.controlTable) {
      const tableName = props.controlTable.tableName;
      const systemErrors = Object.fromEntries(
        CONTROL_TABLE_OPERATIONS.map((operation) => [
          `errors${operation}`,
          new Metric({
            namespace: 'AWS/DynamoDB',
            metricName: 'SystemErrors',
            dimensionsMap: { TableName: tableName, Operation: operation },
            period,
            statistic: 'Sum',
          }),
        ]),
      );
      const usingMetrics = {
        reads: tableThrottleEvents(tableName, 'ReadThrottleEvents', period),
        writes: tableThrottleEvents(tableName, 'WriteThrottleEvents', period),
        ...systemErrors,
      };
      add(
        'ControlTableErrors',
        'The control-plane table throttled requests or failed them (SystemErrors): key checks of both ' +
          'stages slow down or answer auth_unavailable (docs/operations.md, ControlTableErrors).',
        {
          metric: sumOf(usingMetrics, 'Control table throttles and system errors', period),
          threshold: 1,
          evaluationPeriods: 2,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        },
      );
    }
  }

  private addPriceFeedAlarms(
    stage: string,
    priceFeed: NonNullable<AlarmsProps['priceFeed']>,
    add: AddAlarm,
  ): void {
    add(
      'StationPricesStale',
      `The newest station price is older than ${priceFeed.stalePriceHours} hours, or the freshness job ` +
        'reported nothing: the price feed stopped (docs/operations.md, StationPricesStale).',
      {
        // Two runs of the job per period, so one late run does not read as missing data.
        metric: stationPriceAge(stage, PRICE_FRESHNESS_RATE.plus(PRICE_FRESHNESS_RATE)),
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
