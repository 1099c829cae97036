import { Aws, Duration } from 'aws-cdk-lib';
import { Dashboard, GraphWidget, MathExpression, Metric, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { type ILogGroup, QueryDefinition, QueryString } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { PROBLEM_METRIC, USAGE_METRICS_NAMESPACE } from '#shared/platform/usage-metrics.ts';

export interface FinanceProps {
  stage: string;
  httpApiId: string;
  /** The log groups of the HTTP functions: where the usage records (EMF) are written. */
  usageLogGroups: readonly ILogGroup[];
}

/** Logs Insights searches at most 50 log groups in one query; larger sets get numbered parts. */
export const MAX_LOG_GROUPS_PER_QUERY = 50;

/** The codes that answer 429: one line each on the dashboard. */
export const THROTTLE_CODES = ['rate_limited', 'quota_exceeded', 'station_budget_exceeded'] as const;

/**
 * What finance reads, per stage: a CloudWatch dashboard of usage and refusals, and saved Logs
 * Insights queries that total each account's and each fleet's usage over a chosen range (this
 * month: set the range from the 1st, 00:00 UTC). Usage is metered per call by the functions
 * (`shared/platform/usage-metrics.ts`); nothing here is on the request path.
 */
export class Finance extends Construct {
  readonly dashboard: Dashboard;
  readonly queries: QueryDefinition[] = [];

  constructor(scope: Construct, id: string, props: FinanceProps) {
    super(scope, id);
    const { stage } = props;
    const hour = Duration.hours(1);
    // SEARCH finds every family's or code's series, including ones added after this deploy, and
    // whatever other dimensions Powertools adds (service).
    const search = (metric: string, dimensions: string, filter: string, label: string, period = hour) =>
      new MathExpression({
        expression: `SEARCH('{${USAGE_METRICS_NAMESPACE},${dimensions}} MetricName="${metric}" stage="${stage}"${filter}', 'Sum', ${period.toSeconds()})`,
        label,
        period,
        usingMetrics: {},
      });
    const gateway = (metricName: string, label: string) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: props.httpApiId },
        period: hour,
        statistic: 'Sum',
        label,
      });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      // Dashboard names are account-wide: the region keeps a second region's deploy from colliding.
      dashboardName: `fleet-fuel-${stage}-finance-${Aws.REGION}`,
      defaultInterval: Duration.days(30),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          `# Fleet fuel ${stage}: usage and refusals\n` +
          'Hourly sums. Per account and per fleet: Logs Insights → Saved queries → ' +
          `\`fleet-fuel/${stage}/finance/…\` (docs/enumeration-and-finance.md).`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API calls by endpoint family',
        left: [search('ApiCalls', 'family,service,stage', '', '')],
        width: 12,
        stacked: true,
      }),
      new GraphWidget({
        title: 'Station results: charged to the budget, and guidance overage',
        left: [
          search('StationResults', 'family,service,stage', '', 'station results (budget)'),
          // Live guidance past the budget: never refused, invoiced apart (StationResultsOverage).
          search('StationResultsOverage', 'family,service,stage', '', 'overage (guidance past the budget)'),
        ],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: '4xx and 5xx responses',
        left: [gateway('4xx', '4xx'), gateway('5xx', '5xx')],
        right: [gateway('Count', 'all requests')],
        width: 12,
      }),
      new GraphWidget({
        title: '429 responses by code',
        left: [
          search(
            PROBLEM_METRIC,
            'code,service,stage',
            ` (${THROTTLE_CODES.map((code) => `code="${code}"`).join(' OR ')})`,
            '',
          ),
        ],
        width: 12,
        stacked: true,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'All problem responses by code (incl. enumeration_suspected)',
        left: [search(PROBLEM_METRIC, 'code,service,stage', '', '')],
        width: 24,
      }),
    );

    const groups = chunk(props.usageLogGroups, MAX_LOG_GROUPS_PER_QUERY);
    groups.forEach((logGroups, index) => {
      const suffix = groups.length > 1 ? `-part-${index + 1}` : '';
      this.queries.push(
        new QueryDefinition(this, `UsagePerAccount${suffix}`, {
          queryDefinitionName: `fleet-fuel/${stage}/finance/usage-per-account${suffix}`,
          queryString: usageQuery(stage, 'account_id, plan'),
          logGroups: [...logGroups],
        }),
        new QueryDefinition(this, `UsagePerFleet${suffix}`, {
          queryDefinitionName: `fleet-fuel/${stage}/finance/usage-per-fleet${suffix}`,
          queryString: usageQuery(stage, 'fleet_id, account_id'),
          logGroups: [...logGroups],
        }),
      );
    });
  }
}

/** Totals of the usage records (EMF lines) by `by`, one row per account or fleet and family. */
export function usageQuery(stage: string, by: string): QueryString {
  return new QueryString({
    fields: [
      '@timestamp',
      'account_id',
      'fleet_id',
      'plan',
      'family',
      'ApiCalls',
      'StationResults',
      'StationResultsOverage',
    ],
    filterStatements: [
      `stage = '${stage}'`,
      'ispresent(ApiCalls) or ispresent(StationResults) or ispresent(StationResultsOverage)',
    ],
    statsStatements: [
      'sum(ApiCalls) as api_calls, sum(StationResults) as station_results, ' +
        `sum(StationResultsOverage) as station_results_overage by ${by}, family`,
    ],
    sort: 'api_calls desc',
  });
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
