import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionRoles } from '#lib/execution-roles.ts';
import { GuidanceWorker, VEHICLE_UPDATES_MAX_RECEIVE_COUNT, VehicleUpdatesQueue } from '#lib/ingest.ts';
import { stageSettings } from '#lib/stage.ts';
import { GUIDANCE_WORKER } from '#lib/worker-functions.ts';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };
type Resource = { Properties: Record<string, unknown>; DeletionPolicy?: string };

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

/**
 * The constructs alone, in a probe stack with a table, the execution roles and a stand-in deliveries
 * queue: no bundling, the worker's code is a placeholder folder (the stack tests check the real bundle).
 */
let workDir: string;
let stack: Stack;
let vehicleUpdates: VehicleUpdatesQueue;
let worker: GuidanceWorker;
let deliveries: Queue;
let roles: ExecutionRoles;
let template: Template;

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-ingest-'));
  mkdirSync(join(workDir, GUIDANCE_WORKER.name));
  writeFileSync(join(workDir, GUIDANCE_WORKER.name, 'index.mjs'), 'export const handler = async () => {};\n');

  stack = new Stack(new App(), 'IngestProbe');
  const table = new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  roles = new ExecutionRoles(stack, 'Roles', {
    table,
    controlTable: table,
    functionLogPrefix: '/fleet-fuel/prod/functions',
    routingEngine: 'embedded',
  });
  deliveries = new Queue(stack, 'Deliveries');
  vehicleUpdates = new VehicleUpdatesQueue(stack, 'VehicleUpdates', { settings: stageSettings.prod, roles });
  worker = new GuidanceWorker(stack, 'GuidanceWorker', {
    settings: stageSettings.prod,
    functionsDir: workDir,
    roles,
    environment: { STAGE: 'prod', ...vehicleUpdates.environment },
    functionLogPrefix: '/fleet-fuel/prod/functions',
    vehicleUpdates,
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
const sqsStatementsOf = (roleId: string) =>
  statementsOf(roleId).filter((s) => asList(s.Action).some((action) => action.startsWith('sqs:')));

describe('the vehicle-updates queue', () => {
  it('is encrypted, hides a batch for 6× the worker timeout, and redrives to the DLQ after 5 receives', () => {
    const queue = template.findResources('AWS::SQS::Queue')[id(vehicleUpdates.queue)] as Resource;

    expect(queue.Properties).toEqual({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * GUIDANCE_WORKER.timeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: arnOf(id(vehicleUpdates.deadLetters)), maxReceiveCount: 5 },
    });
    expect(VEHICLE_UPDATES_MAX_RECEIVE_COUNT).toBe(5);
  });

  it('keeps dead letters 14 days, encrypted', () => {
    const dlq = template.findResources('AWS::SQS::Queue')[id(vehicleUpdates.deadLetters)] as Resource;

    expect(dlq.Properties).toEqual({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
  });

  it('keeps both queues when prod’s stack is deleted', () => {
    for (const queue of [vehicleUpdates.queue, vehicleUpdates.deadLetters]) {
      const resource = template.findResources('AWS::SQS::Queue')[id(queue)] as Resource;
      expect(resource.DeletionPolicy).toBe('RetainExceptOnCreate');
    }
  });

  it('denies requests without TLS on both queues', () => {
    for (const queue of [vehicleUpdates.queue, vehicleUpdates.deadLetters]) {
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

  it('names its URL in VEHICLE_UPDATES_QUEUE_URL', () => {
    expect(stack.resolve(vehicleUpdates.environment)).toEqual({
      VEHICLE_UPDATES_QUEUE_URL: { Ref: id(vehicleUpdates.queue) },
    });
  });

  it('lets the api role send to it (locations ingest, guidance skip), and nothing more', () => {
    expect(sqsStatementsOf(id(roles.roleFor('api')))).toEqual([
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: arnOf(id(vehicleUpdates.queue)) },
    ]);
  });
});

describe('the guidance worker', () => {
  it('consumes the queue in batches of 10 within 1 s, reporting failed items only, at most 300 at once', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: arnOf(id(vehicleUpdates.queue)),
      FunctionName: { Ref: id(worker.worker.function) },
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 300 },
    });
  });

  it('runs its own bundle with its own timeout, under the guidance-worker role group', () => {
    const fn = template.findResources('AWS::Lambda::Function')[id(worker.worker.function)] as Resource;

    expect(fn.Properties).toMatchObject({
      Handler: 'index.handler',
      Timeout: GUIDANCE_WORKER.timeoutSeconds,
      Role: arnOf(id(roles.roleFor('guidance-worker'))),
      Environment: {
        Variables: { STAGE: 'prod', VEHICLE_UPDATES_QUEUE_URL: { Ref: id(vehicleUpdates.queue) } },
      },
    });
  });

  it('may consume its queue and send to the deliveries queue (event fan-out), and nothing else on SQS', () => {
    const byResource = new Map<string, string[]>();
    for (const statement of sqsStatementsOf(id(roles.roleFor('guidance-worker')))) {
      expect(statement.Effect).toBe('Allow');
      const resource = (statement.Resource as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      byResource.set(resource, [...(byResource.get(resource) ?? []), ...asList(statement.Action)]);
    }

    expect([...byResource.keys()].sort()).toEqual([id(vehicleUpdates.queue), id(deliveries)].sort());
    expect(byResource.get(id(deliveries))).toEqual(['sqs:SendMessage']);
    expect(byResource.get(id(vehicleUpdates.queue))?.sort()).toEqual(
      [
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
      ].sort(),
    );
  });

  it('reads and writes the table without deleting or scanning, and only reads the control plane', () => {
    const dynamo = statementsOf(id(roles.roleFor('guidance-worker'))).filter((s) =>
      asList(s.Action).some((action) => action.startsWith('dynamodb:')),
    );
    const actions = dynamo.flatMap((s) => asList(s.Action));

    expect(dynamo.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
    );
    for (const action of ['dynamodb:DeleteItem', 'dynamodb:Scan', 'dynamodb:BatchWriteItem']) {
      expect(actions).not.toContain(action);
    }
  });

  it('gives nobody else access to the vehicle-updates DLQ', () => {
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));

    expect(policies).not.toContain(id(vehicleUpdates.deadLetters));
  });
});
