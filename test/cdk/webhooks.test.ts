import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionRoles } from '#lib/execution-roles.ts';
import { stageSettings } from '#lib/stage.ts';
import { DELIVERY_MAX_RECEIVE_COUNT, Webhooks } from '#lib/webhooks.ts';
import { WEBHOOK_DISPATCHER } from '#lib/worker-functions.ts';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };
type Resource = { Properties: Record<string, unknown> };

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

/**
 * The construct alone, in a probe stack with a table and the execution roles: no bundling, the
 * dispatcher's code is a placeholder folder (the stack tests check the real bundle).
 */
let workDir: string;
let stack: Stack;
let webhooks: Webhooks;
let roles: ExecutionRoles;
let template: Template;

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-webhooks-'));
  mkdirSync(join(workDir, WEBHOOK_DISPATCHER.name));
  writeFileSync(
    join(workDir, WEBHOOK_DISPATCHER.name, 'index.mjs'),
    'export const handler = async () => {};\n',
  );

  stack = new Stack(new App(), 'WebhooksProbe');
  const table = new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  roles = new ExecutionRoles(stack, 'Roles', {
    table,
    controlTable: table,
    functionLogPrefix: '/fleet-fuel/prod/functions',
    routingEngine: 'embedded',
  });
  webhooks = new Webhooks(stack, 'Webhooks', {
    settings: stageSettings.prod,
    functionsDir: workDir,
    roles,
    environment: { STAGE: 'prod' },
    functionLogPrefix: '/fleet-fuel/prod/functions',
  });
  template = Template.fromStack(stack);
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const id = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);
const statementsOf = (roleId: string): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
const withService = (statements: Statement[], service: string) =>
  statements.filter((s) => asList(s.Action).some((action) => action.startsWith(`${service}:`)));

describe('the deliveries queue', () => {
  it('is encrypted, TLS-only, hides a batch for 6× the dispatcher timeout, and redrives to the DLQ after 5 receives', () => {
    const queue = template.findResources('AWS::SQS::Queue')[id(webhooks.deliveries)] as Resource;

    expect(queue.Properties).toEqual({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * WEBHOOK_DISPATCHER.timeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: arnOf(id(webhooks.deadLetters)), maxReceiveCount: 5 },
    });
    expect(DELIVERY_MAX_RECEIVE_COUNT).toBe(5);
  });

  it('keeps dead letters 14 days, encrypted', () => {
    const dlq = template.findResources('AWS::SQS::Queue')[id(webhooks.deadLetters)] as Resource;

    expect(dlq.Properties).toEqual({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
  });

  it('denies requests without TLS on both queues', () => {
    for (const queue of [webhooks.deliveries, webhooks.deadLetters]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id(queue) }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });
});

describe('the dispatcher', () => {
  it('consumes the deliveries queue in batches of 10 within 1 s, reporting failed items only', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: arnOf(id(webhooks.deliveries)),
      FunctionName: { Ref: id(webhooks.dispatcher.function) },
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 50 },
    });
  });

  it('runs its own bundle with its own timeout and the pipeline environment on top of the service one', () => {
    const dispatcher = template.findResources('AWS::Lambda::Function')[
      id(webhooks.dispatcher.function)
    ] as Resource;

    expect(dispatcher.Properties).toMatchObject({
      Handler: 'index.handler',
      Timeout: WEBHOOK_DISPATCHER.timeoutSeconds,
      Environment: {
        Variables: {
          STAGE: 'prod',
          DELIVERIES_QUEUE_URL: { Ref: id(webhooks.deliveries) },
          DELIVERIES_QUEUE_ARN: arnOf(id(webhooks.deliveries)),
          DELIVERIES_DLQ_URL: { Ref: id(webhooks.deadLetters) },
          SCHEDULER_ROLE_ARN: arnOf(id(webhooks.schedulerRole)),
          SCHEDULE_GROUP_NAME: 'fleet-fuel-prod-webhook-retries',
        },
      },
    });
  });

  it('runs under the webhook-dispatcher role group', () => {
    const dispatcher = template.findResources('AWS::Lambda::Function')[
      id(webhooks.dispatcher.function)
    ] as Resource;

    expect(dispatcher.Properties.Role).toEqual(arnOf(id(roles.roleFor('webhook-dispatcher'))));
  });

  it('may create schedules in the retry group only, and pass the Scheduler role to Scheduler only', () => {
    const statements = statementsOf(id(roles.roleFor('webhook-dispatcher')));

    expect(withService(statements, 'scheduler')).toEqual([
      {
        Action: 'scheduler:CreateSchedule',
        Effect: 'Allow',
        Resource: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':scheduler:',
              { Ref: 'AWS::Region' },
              ':',
              { Ref: 'AWS::AccountId' },
              ':schedule/fleet-fuel-prod-webhook-retries/*',
            ],
          ],
        },
      },
    ]);
    expect(withService(statements, 'iam')).toEqual([
      {
        Action: 'iam:PassRole',
        Effect: 'Allow',
        Resource: arnOf(id(webhooks.schedulerRole)),
        Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      },
    ]);
  });

  it('may send to the DLQ and nothing else there', () => {
    const statements = withService(statementsOf(id(roles.roleFor('webhook-dispatcher'))), 'sqs');

    expect(statements.filter((s) => JSON.stringify(s.Resource).includes(id(webhooks.deadLetters)))).toEqual([
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: arnOf(id(webhooks.deadLetters)) },
    ]);
  });
});

describe('retry scheduling', () => {
  it('has one schedule group per stage, named after it', () => {
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', {
      Name: 'fleet-fuel-prod-webhook-retries',
    });
  });

  it('has a role only Scheduler may assume, for schedules of this account and group', () => {
    const role = template.findResources('AWS::IAM::Role')[id(webhooks.schedulerRole)] as Resource;

    expect(role.Properties.AssumeRolePolicyDocument).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'scheduler.amazonaws.com' },
          Condition: {
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            ArnEquals: { 'aws:SourceArn': arnOf(id(webhooks.retrySchedules)) },
          },
        },
      ],
    });
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('lets the Scheduler role send to the deliveries queue and do nothing else', () => {
    expect(statementsOf(id(webhooks.schedulerRole))).toEqual([
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: arnOf(id(webhooks.deliveries)) },
    ]);
  });
});

describe('fan-out', () => {
  it('lets the api role send to the deliveries queue only', () => {
    expect(withService(statementsOf(id(roles.roleFor('api'))), 'sqs')).toEqual([
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: arnOf(id(webhooks.deliveries)) },
    ]);
  });
});

describe('the dispatcher’s table access', () => {
  it('reads, puts and updates deliveries, endpoints and counters, and deletes or scans nothing', () => {
    const dynamo = statementsOf(id(roles.roleFor('webhook-dispatcher'))).filter((s) =>
      asList(s.Action).some((action) => action.startsWith('dynamodb:')),
    );

    expect(dynamo.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(dynamo.flatMap((s) => asList(s.Action)).sort()).toEqual(
      ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'].sort(),
    );
  });
});
