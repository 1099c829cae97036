import { type NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LATENCY_P99_THRESHOLD } from '#lib/alarms.ts';
import type { FleetFuelStack } from '#lib/fleet-fuel-stack.ts';
import { type Stage, stageSettings } from '#lib/stage.ts';
import { bundleForCdkTests, type CdkFixture } from './synthesize.ts';

type Resource = { Properties: Record<string, unknown> };
/** A metric of a widget: namespace, name, then dimension name/value pairs, then an options object. */
type WidgetMetric = (string | Record<string, unknown>)[];
type Widget = {
  type: string;
  width: number;
  properties: {
    title: string;
    alarms?: string[];
    metrics?: WidgetMetric[];
    annotations?: { horizontal?: { value: number; label: string }[] };
  };
};

let fixture: CdkFixture;
let stacks: Record<Stage, FleetFuelStack>;
let templates: Record<Stage, Template>;

beforeAll(async () => {
  fixture = await bundleForCdkTests();
  const { stages } = fixture.createApp();
  stacks = stages;
  templates = { prod: Template.fromStack(stages.prod), sandbox: Template.fromStack(stages.sandbox) };
}, 600_000);

afterAll(() => fixture?.cleanUp());

/**
 * The dashboard body as JSON: CloudFormation joins it from strings and references, which stand here
 * as `<Ref:Id>` / `<GetAtt:Id.Attribute>` placeholders inside the strings they belong to.
 */
function dashboardBody(dashboard: Resource): { widgets: Widget[] } {
  const body = dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] } | string;
  if (typeof body === 'string') return JSON.parse(body);
  const text = body['Fn::Join'][1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const reference = part as { Ref?: string; 'Fn::GetAtt'?: string[] };
      if (reference.Ref) return `<Ref:${reference.Ref}>`;
      if (reference['Fn::GetAtt']) return `<GetAtt:${reference['Fn::GetAtt'].join('.')}>`;
      return `<${JSON.stringify(part).replace(/"/g, "'")}>`;
    })
    .join('');
  return JSON.parse(text);
}

describe.each(['prod', 'sandbox'] as const)('the %s operations dashboard', (stage) => {
  const stack = () => stacks[stage];
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stack().getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);
  const dashboards = () =>
    templates[stage].findResources('AWS::CloudWatch::Dashboard') as Record<string, Resource>;
  const operations = () => {
    const id = logicalId(stack().dashboard.dashboard);
    const dashboard = dashboards()[id];
    if (!dashboard) throw new Error(`No operations dashboard ${id}`);
    return { id, dashboard, widgets: dashboardBody(dashboard).widgets };
  };
  const widget = (title: string) => {
    const found = operations().widgets.find((w) => w.properties.title === title);
    if (!found) throw new Error(`No widget “${title}”`);
    return found;
  };
  /**
   * How the stage template names a function: a Ref in the stage stack, or an output of the nested
   * stack that holds it.
   */
  const functionNameIn = (fn: IFunction) => {
    const home = Stack.of(fn);
    if (home === stack()) return `<Ref:${logicalId(fn)}>`;
    const nested = (home as NestedStack).nestedStackResource;
    if (!nested) throw new Error(`${fn.node.path} is neither in the stage stack nor in a nested one`);
    return expect.stringMatching(new RegExp(`^<GetAtt:${stack().getLogicalId(nested)}\\.Outputs\\.`));
  };
  /** The function names, queue names or table names a widget's metrics carry, as placeholders. */
  const dimensionValues = (title: string, name: string) =>
    (widget(title).properties.metrics ?? []).map((metric) => metric[metric.indexOf(name) + 1]);

  it('is one dashboard beside the finance one, with no fixed name (dashboards are account-wide)', () => {
    // The other is finance's (lib/finance.ts).
    expect(Object.keys(dashboards())).toHaveLength(2);
    expect(operations().dashboard.Properties.DashboardName).toBeUndefined();
  });

  it('outputs its console link in the stage’s region', () => {
    const output = templates[stage].findOutputs('DashboardUrl').DashboardUrl as { Value: unknown };
    const value = JSON.stringify(output.Value);
    expect(value).toContain('.console.aws.amazon.com/cloudwatch/home?region=');
    expect(value).toContain('AWS::Region');
    expect(value).toContain(JSON.stringify({ Ref: operations().id }));
  });

  it('shows, in order, the alarms, what integrators feel, lag and dead letters, functions, table, webhooks and 503s', () => {
    expect(operations().widgets.map((w) => w.properties.title)).toEqual([
      `Fleet fuel ${stage}: alarms`,
      'API requests, 4xx and 5xx',
      'API latency (ms)',
      'Guidance and webhook lag: oldest message (s)',
      'Dead-letter queues: messages',
      'Lambda errors',
      'Lambda throttles',
      'Account concurrency (all functions)',
      'Stage table throttle events',
      'Webhook deliveries',
      'Unavailable answers (503)',
      ...(stage === 'prod' ? ['Newest station price age (hours)'] : []),
    ]);
  });

  it('puts every alarm of the stage in the status widget', () => {
    const status = widget(`Fleet fuel ${stage}: alarms`);
    expect(status.type).toBe('alarm');
    const alarmIds = Object.keys(templates[stage].findResources('AWS::CloudWatch::Alarm'));
    expect(status.properties.alarms?.map((arn) => /<GetAtt:(\w+)\.Arn>/.exec(arn)?.[1]).sort()).toEqual(
      alarmIds.sort(),
    );
  });

  it('charts the API’s traffic and its p99 latency, against the ApiLatency threshold where that alarm is', () => {
    const apiId = `<Ref:${logicalId(stack().api.httpApi)}>`;
    const traffic = widget('API requests, 4xx and 5xx').properties.metrics ?? [];
    expect(traffic.map((metric) => metric.slice(0, 4))).toEqual([
      ['AWS/ApiGateway', '4xx', 'ApiId', apiId],
      ['AWS/ApiGateway', '5xx', 'ApiId', apiId],
      ['AWS/ApiGateway', 'Count', 'ApiId', apiId],
    ]);
    const latency = widget('API latency (ms)').properties;
    expect(latency.metrics?.map((metric) => (metric[4] as { stat: string }).stat)).toEqual(['p50', 'p99']);
    expect(latency.annotations?.horizontal?.[0]?.value).toBe(
      stage === 'prod' ? API_LATENCY_P99_THRESHOLD : undefined,
    );
  });

  it('charts both queues’ oldest message and both DLQs by the names the queues publish', () => {
    const queueName = (queue: { node: { defaultChild?: unknown } }) =>
      `<GetAtt:${logicalId(queue)}.QueueName>`;
    expect(dimensionValues('Guidance and webhook lag: oldest message (s)', 'QueueName')).toEqual([
      queueName(stack().vehicleUpdates.queue),
      queueName(stack().webhooks.deliveries),
    ]);
    expect(dimensionValues('Dead-letter queues: messages', 'QueueName')).toEqual([
      queueName(stack().vehicleUpdates.deadLetters),
      queueName(stack().webhooks.deadLetters),
    ]);
  });

  it('charts errors and throttles of breadcrumb ingest, the guidance read, the guidance worker and the dispatcher', () => {
    for (const title of ['Lambda errors', 'Lambda throttles']) {
      const values = dimensionValues(title, 'FunctionName');
      expect(values).toHaveLength(4);
      // The workers are in the stage stack; the route functions wherever the API puts them.
      expect(values.slice(2)).toEqual([
        functionNameIn(stack().guidanceWorker.worker.function),
        functionNameIn(stack().webhooks.dispatcher.function),
      ]);
    }
    const routeFunctions = ['ingestLocations', 'getGuidance'].map((operationId) => {
      const fn = stack().api.functions.get(operationId)?.function;
      if (!fn) throw new Error(`No function for ${operationId}`);
      return fn;
    });
    for (const title of ['Lambda errors', 'Lambda throttles']) {
      expect(dimensionValues(title, 'FunctionName').slice(0, 2)).toEqual(routeFunctions.map(functionNameIn));
    }
  });

  it('charts the stage table’s throttle events and the auth and storage 503s by code', () => {
    expect(dimensionValues('Stage table throttle events', 'TableName')).toEqual([
      `<Ref:${logicalId(stack().data.table)}>`,
      `<Ref:${logicalId(stack().data.table)}>`,
    ]);
    expect(dimensionValues('Unavailable answers (503)', 'code')).toEqual([
      'auth_unavailable',
      'storage_unavailable',
    ]);
  });

  if (stage === 'prod') {
    it('charts the newest station price’s age against the stale-price threshold', () => {
      const price = widget('Newest station price age (hours)').properties;
      expect(price.metrics?.[0]?.slice(0, 2)).toEqual(['FleetFuelGuidance', 'StationPriceAgeHours']);
      expect(price.annotations?.horizontal?.[0]?.value).toBe(stageSettings.prod.stalePriceHours);
    });
  }
});
