import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionRoles } from '#lib/execution-roles.ts';
import { Jobs } from '#lib/jobs.ts';
import { stageSettings } from '#lib/stage.ts';
import { HEALTH_SNAPSHOT, OFFLINE_SWEEP } from '#lib/worker-functions.ts';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };
type Resource = { Properties: Record<string, unknown> };

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

/** The construct alone, in a probe stack (sandbox settings) with a placeholder bundle. */
let workDir: string;
let stack: Stack;
let jobs: Jobs;
let deliveries: Queue;
let roles: ExecutionRoles;
let template: Template;

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-jobs-'));
  for (const job of [OFFLINE_SWEEP, HEALTH_SNAPSHOT]) {
    mkdirSync(join(workDir, job.name));
    writeFileSync(join(workDir, job.name, 'index.mjs'), 'export const handler = async () => ({});\n');
  }

  stack = new Stack(new App(), 'JobsProbe');
  const table = new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  roles = new ExecutionRoles(stack, 'Roles', {
    table,
    controlTable: table,
    functionLogPrefix: '/fleet-fuel/sandbox/functions',
    routingEngine: 'embedded',
  });
  deliveries = new Queue(stack, 'Deliveries');
  jobs = new Jobs(stack, 'Jobs', {
    settings: stageSettings.sandbox,
    functionsDir: workDir,
    roles,
    environment: { STAGE: 'sandbox' },
    functionLogPrefix: '/fleet-fuel/sandbox/functions',
    deliveries,
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
const sweepId = () => id(jobs.offlineSweep.function);

describe('the offline sweep schedule', () => {
  it('invokes the sweep every minute, on time, in the stage’s jobs group', () => {
    // The offline sweep's and the daily health snapshot's.
    template.resourceCountIs('AWS::Scheduler::Schedule', 2);
    const schedule = template.findResources('AWS::Scheduler::Schedule')[
      id(jobs.offlineSweepSchedule)
    ] as Resource;

    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      GroupName: 'fleet-fuel-sandbox-jobs',
      State: 'ENABLED',
      Target: {
        Arn: arnOf(sweepId()),
        RoleArn: arnOf(id(jobs.schedulerRole)),
        // A retried run must still be this minute's: 60 s is Scheduler's minimum event age.
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 60 },
      },
    });
  });

  it('has a schedule group of its own, named after the stage', () => {
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'fleet-fuel-sandbox-jobs' });
  });

  it('is invoked by a role only Scheduler may assume, for schedules of this account and group', () => {
    const role = template.findResources('AWS::IAM::Role')[id(jobs.schedulerRole)] as Resource;

    expect(role.Properties.AssumeRolePolicyDocument).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'scheduler.amazonaws.com' },
          Condition: {
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            ArnEquals: { 'aws:SourceArn': arnOf(id(jobs.group)) },
          },
        },
      ],
    });
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('lets that role invoke the sweep and the health snapshot and do nothing else', () => {
    const statements = statementsOf(id(jobs.schedulerRole));

    expect(statements.every((s) => s.Action === 'lambda:InvokeFunction' && s.Effect === 'Allow')).toBe(true);
    // Each function and its versions/aliases (CDK's grantInvoke); there are none, so only the functions.
    const snapshotId = id(jobs.healthSnapshot.function);
    expect(statements.flatMap((s) => asList(s.Resource))).toEqual([
      arnOf(sweepId()),
      { 'Fn::Join': ['', [arnOf(sweepId()), ':*']] },
      arnOf(snapshotId),
      { 'Fn::Join': ['', [arnOf(snapshotId), ':*']] },
    ]);
  });
});

describe('the health snapshot schedule', () => {
  it('runs the snapshot job daily at 23:55 UTC, under the health-snapshot role group', () => {
    const schedule = template.findResources('AWS::Scheduler::Schedule')[
      id(jobs.healthSnapshotSchedule)
    ] as Resource;
    const snapshotId = id(jobs.healthSnapshot.function);
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'cron(55 23 * * ? *)',
      GroupName: 'fleet-fuel-sandbox-jobs',
      Target: { Arn: arnOf(snapshotId), RoleArn: arnOf(id(jobs.schedulerRole)) },
    });
    const fn = template.findResources('AWS::Lambda::Function')[snapshotId] as Resource;
    expect(fn.Properties).toMatchObject({
      Timeout: HEALTH_SNAPSHOT.timeoutSeconds,
      Role: arnOf(id(roles.roleFor('health-snapshot'))),
    });
  });
});

describe('the offline sweep', () => {
  it('runs its own bundle with a timeout of one schedule period, under the offline-sweep role group', () => {
    const fn = template.findResources('AWS::Lambda::Function')[sweepId()] as Resource;

    expect(fn.Properties).toMatchObject({
      Handler: 'index.handler',
      Timeout: OFFLINE_SWEEP.timeoutSeconds,
      Role: arnOf(id(roles.roleFor('offline-sweep'))),
      Environment: { Variables: { STAGE: 'sandbox' } },
    });
    expect(OFFLINE_SWEEP.timeoutSeconds).toBe(60 * OFFLINE_SWEEP.rateMinutes);
  });

  it('is not retried by Lambda: the next minute’s run is the retry', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: sweepId() },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 60,
    });
  });

  it('may send to the deliveries queue (event fan-out) and nothing else on SQS, and never routes', () => {
    const statements = statementsOf(id(roles.roleFor('offline-sweep')));
    const sqs = statements.filter((s) => asList(s.Action).some((action) => action.startsWith('sqs:')));

    expect(sqs).toEqual([{ Action: 'sqs:SendMessage', Effect: 'Allow', Resource: arnOf(id(deliveries)) }]);
    expect(JSON.stringify(statements)).not.toContain('geo-routes');
  });

  it('reads and writes the table, deleting only what the sweep removes, and never scans', () => {
    const dynamo = statementsOf(id(roles.roleFor('offline-sweep'))).filter((s) =>
      asList(s.Action).some((action) => action.startsWith('dynamodb:')),
    );

    expect(dynamo.every((s) => s.Effect === 'Allow')).toBe(true);
    // Heartbeat markers (removeMarker) and pending trip outbox entries (trips.clearOutbox).
    expect(dynamo.flatMap((s) => asList(s.Action)).sort()).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ].sort(),
    );
  });
});
