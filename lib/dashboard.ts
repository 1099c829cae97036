import { Duration, Stack } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  AlarmStatusWidgetSortBy,
  Dashboard,
  GraphWidget,
  type GraphWidgetProps,
  type IAlarm,
  type IMetric,
  type IWidget,
  Metric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { API_LATENCY_P99_THRESHOLD } from './alarms.ts';
import {
  apiGatewayMetric,
  problemResponses,
  stationPriceAge,
  tableThrottleEvents,
} from './operations-metrics.ts';

export interface OperationsDashboardProps {
  stage: string;
  httpApiId: string;
  /** Every alarm of the stage (lib/alarms.ts), in the status widget at the top. */
  alarms: readonly IAlarm[];
  /** The functions whose errors and throttles are charted, by the label the legend shows. */
  keyFunctions: Readonly<Record<string, IFunction>>;
  vehicleUpdates: IQueue;
  vehicleUpdatesDeadLetters: IQueue;
  deliveries: IQueue;
  deliveriesDeadLetters: IQueue;
  dispatcher: IFunction;
  table: ITableV2;
  /** Production only: the newest station price's age, against the stale-price alarm's threshold. */
  priceFeed?: { stalePriceHours: number };
}

/** A row's widgets share the dashboard's 24 columns evenly. */
const WIDTH = 24;
const HEIGHT = 6;

/**
 * What the on-call operator opens first, one per stage (docs/operations.md, "The operations
 * dashboard"): the alarms' states, then what integrators feel (API traffic, errors, latency), the
 * pipelines' lag and dead letters, the functions' errors and throttles, the table and the webhooks.
 * No fixed name: dashboards are account-wide, and a second region's stage must not collide with this
 * one; the stack outputs its console link (`DashboardUrl`).
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const sum = { period, statistic: 'Sum' } as const;
    const max = { period, statistic: 'Maximum' } as const;
    const graph = (title: string, left: IMetric[], rowLength: number, more: Partial<GraphWidgetProps> = {}) =>
      new GraphWidget({ title, left, width: WIDTH / rowLength, height: HEIGHT, ...more });
    const perFunction = (metric: (fn: IFunction) => Metric) =>
      Object.entries(props.keyFunctions).map(([label, fn]) => metric(fn).with({ label }));

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    const rows: IWidget[][] = [
      [
        new AlarmStatusWidget({
          title: `Fleet fuel ${props.stage}: alarms`,
          alarms: [...props.alarms],
          sortBy: AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
          width: WIDTH,
          height: 4,
        }),
      ],
      [
        graph(
          'API requests, 4xx and 5xx',
          [
            apiGatewayMetric(props.httpApiId, '4xx', { ...sum, label: '4xx' }),
            apiGatewayMetric(props.httpApiId, '5xx', { ...sum, label: '5xx' }),
          ],
          2,
          { right: [apiGatewayMetric(props.httpApiId, 'Count', { ...sum, label: 'requests' })] },
        ),
        graph(
          'API latency (ms)',
          [
            apiGatewayMetric(props.httpApiId, 'Latency', { period, statistic: 'p50', label: 'p50' }),
            apiGatewayMetric(props.httpApiId, 'Latency', { period, statistic: 'p99', label: 'p99' }),
          ],
          2,
          // The alarm is production's (lib/alarms.ts): the sandbox's advance is slow by design.
          props.stage === 'prod'
            ? { leftAnnotations: [{ value: API_LATENCY_P99_THRESHOLD, label: 'ApiLatency alarm (p99)' }] }
            : {},
        ),
      ],
      [
        graph(
          'Guidance and webhook lag: oldest message (s)',
          [
            props.vehicleUpdates.metricApproximateAgeOfOldestMessage({ ...max, label: 'vehicle updates' }),
            props.deliveries.metricApproximateAgeOfOldestMessage({ ...max, label: 'webhook deliveries' }),
          ],
          2,
        ),
        graph(
          'Dead-letter queues: messages',
          [
            props.vehicleUpdatesDeadLetters.metricApproximateNumberOfMessagesVisible({
              ...max,
              label: 'vehicle updates DLQ',
            }),
            props.deliveriesDeadLetters.metricApproximateNumberOfMessagesVisible({
              ...max,
              label: 'webhook deliveries DLQ',
            }),
          ],
          2,
        ),
      ],
      [
        graph(
          'Lambda errors',
          perFunction((fn) => fn.metricErrors(sum)),
          3,
        ),
        graph(
          'Lambda throttles',
          perFunction((fn) => fn.metricThrottles(sum)),
          3,
        ),
        // Account-wide (no dimension): both stages and anything else in the region draw on this pool.
        graph(
          'Account concurrency (all functions)',
          [
            new Metric({
              namespace: 'AWS/Lambda',
              metricName: 'ConcurrentExecutions',
              ...max,
              label: 'concurrent executions',
            }),
          ],
          3,
        ),
      ],
      [
        graph(
          'Stage table throttle events',
          [
            tableThrottleEvents(props.table.tableName, 'ReadThrottleEvents', period).with({ label: 'reads' }),
            tableThrottleEvents(props.table.tableName, 'WriteThrottleEvents', period).with({
              label: 'writes',
            }),
          ],
          3,
        ),
        graph(
          'Webhook deliveries',
          [
            props.deliveries.metricNumberOfMessagesSent({ ...sum, label: 'queued' }),
            props.deliveries.metricNumberOfMessagesDeleted({ ...sum, label: 'handled' }),
          ],
          3,
          { right: [props.dispatcher.metricInvocations({ ...sum, label: 'dispatcher invocations' })] },
        ),
        graph(
          'Unavailable answers (503)',
          [
            problemResponses(props.stage, 'auth_unavailable', period).with({ label: 'auth_unavailable' }),
            problemResponses(props.stage, 'storage_unavailable', period).with({
              label: 'storage_unavailable',
            }),
          ],
          3,
        ),
      ],
    ];
    if (props.priceFeed) {
      rows.push([
        graph(
          'Newest station price age (hours)',
          [stationPriceAge(props.stage, Duration.minutes(30)).with({ label: 'newest price' })],
          1,
          {
            leftAnnotations: [{ value: props.priceFeed.stalePriceHours, label: 'StationPricesStale alarm' }],
          },
        ),
      ]);
    }
    for (const row of rows) this.dashboard.addWidgets(...row);
  }

  /** The dashboard in the CloudWatch console of the stack's region. */
  get url(): string {
    const region = Stack.of(this).region;
    return `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }
}
