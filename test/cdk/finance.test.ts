import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { Finance, MAX_LOG_GROUPS_PER_QUERY } from '#lib/finance.ts';

type Resource = { Properties: Record<string, unknown> };

/** The construct alone, in a probe stack with `count` stand-in function log groups. */
function probe(count: number) {
  const stack = new Stack(new App(), 'FinanceProbe');
  const logGroups = Array.from(
    { length: count },
    (_, i) => new LogGroup(stack, `Logs${i}`, { logGroupName: `/fleet-fuel/prod/functions/op${i}` }),
  );
  const finance = new Finance(stack, 'Finance', {
    stage: 'prod',
    httpApiId: 'api123',
    usageLogGroups: logGroups,
  });
  return { stack, finance, template: Template.fromStack(stack) };
}

/** The dashboard body as CloudFormation renders it (Fn::Join of strings and tokens), flattened. */
function dashboardBody(template: Template): string {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
  return JSON.stringify(dashboard?.Properties.DashboardBody);
}

describe('the finance dashboard', () => {
  const { stack, template } = probe(3);
  const body = dashboardBody(template);

  it('is one dashboard per stage, named for it and its region (dashboard names are account-wide)', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardName: { 'Fn::Join': ['', ['fleet-fuel-prod-finance-', { Ref: 'AWS::Region' }]] },
    });
  });

  it('charts calls by family and station results from the usage metrics of this stage', () => {
    expect(body).toContain('MetricName=\\\\\\"ApiCalls\\\\\\" stage=\\\\\\"prod\\\\\\"');
    expect(body).toContain('MetricName=\\\\\\"StationResults\\\\\\" stage=\\\\\\"prod\\\\\\"');
    expect(body).toContain('MetricName=\\\\\\"StationResultsOverage\\\\\\" stage=\\\\\\"prod\\\\\\"');
    expect(body).toContain('{FleetFuelGuidance,family,service,stage}');
    expect(body).toContain('API calls by endpoint family');
  });

  it('charts 4xx and 5xx of the stage’s API and 429s by code', () => {
    expect(body).toMatch(/"AWS\/ApiGateway\\",\\"4xx\\",\\"ApiId\\",\\"api123\\"/);
    expect(body).toMatch(/"AWS\/ApiGateway\\",\\"5xx\\",\\"ApiId\\",\\"api123\\"/);
    expect(body).toContain('MetricName=\\\\\\"ProblemResponses\\\\\\"');
    for (const code of ['rate_limited', 'quota_exceeded', 'station_budget_exceeded']) {
      expect(body).toContain(`code=\\\\\\"${code}\\\\\\"`);
    }
  });

  it('synthesizes without warnings (the SEARCH expressions need no metric ids)', () => {
    expect(Annotations.fromStack(stack).findWarning('*', {})).toEqual([]);
  });
});

describe('the saved Logs Insights queries', () => {
  it('total usage per account and per fleet from the functions’ usage records', () => {
    // Arrange / Act
    const { template } = probe(3);

    // Assess
    const queries = Object.values(template.findResources('AWS::Logs::QueryDefinition')) as Resource[];
    const byName = new Map(queries.map((query) => [query.Properties.Name, query.Properties]));
    expect([...byName.keys()].sort()).toEqual([
      'fleet-fuel/prod/finance/usage-per-account',
      'fleet-fuel/prod/finance/usage-per-fleet',
    ]);
    const perAccount = byName.get('fleet-fuel/prod/finance/usage-per-account');
    const perFleet = byName.get('fleet-fuel/prod/finance/usage-per-fleet');
    expect(perAccount?.QueryString).toMatch(/filter stage = 'prod'/);
    expect(perAccount?.QueryString).toMatch(
      /stats sum\(ApiCalls\) as api_calls, sum\(StationResults\) as station_results, sum\(StationResultsOverage\) as station_results_overage by account_id, plan, family/,
    );
    expect(perFleet?.QueryString).toMatch(/by fleet_id, account_id, family/);
    expect(perAccount?.LogGroupNames).toHaveLength(3);
  });

  it('splits into numbered parts beyond the log groups one query may search', () => {
    // Arrange / Act
    const { template } = probe(MAX_LOG_GROUPS_PER_QUERY + 5);

    // Assess
    const queries = Object.values(template.findResources('AWS::Logs::QueryDefinition')) as Resource[];
    const names = queries.map((query) => query.Properties.Name).sort();
    expect(names).toEqual([
      'fleet-fuel/prod/finance/usage-per-account-part-1',
      'fleet-fuel/prod/finance/usage-per-account-part-2',
      'fleet-fuel/prod/finance/usage-per-fleet-part-1',
      'fleet-fuel/prod/finance/usage-per-fleet-part-2',
    ]);
    const sizes = queries.map((query) => (query.Properties.LogGroupNames as unknown[]).length).sort();
    expect(sizes).toEqual([5, 5, MAX_LOG_GROUPS_PER_QUERY, MAX_LOG_GROUPS_PER_QUERY]);
  });
});
