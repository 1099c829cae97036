import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionRoles } from '#lib/execution-roles.ts';
import { PriceFeed } from '#lib/price-feed.ts';
import { stageSettings } from '#lib/stage.ts';
import { PRICE_FEED_IMPORT, PRICE_FRESHNESS } from '#lib/worker-functions.ts';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };
type Resource = {
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

/** The construct alone, in a probe stack (production settings) with placeholder bundles. */
let workDir: string;
let stack: Stack;
let feed: PriceFeed;
let roles: ExecutionRoles;
let table: TableV2;
let template: Template;

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-price-feed-'));
  for (const job of [PRICE_FEED_IMPORT, PRICE_FRESHNESS]) {
    mkdirSync(join(workDir, job.name));
    writeFileSync(join(workDir, job.name, 'index.mjs'), 'export const handler = async () => ({});\n');
  }

  stack = new Stack(new App(), 'PriceFeedProbe');
  table = new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  roles = new ExecutionRoles(stack, 'Roles', {
    table,
    controlTable: table,
    functionLogPrefix: '/fleet-fuel/prod/functions',
    routingEngine: 'embedded',
  });
  const group = new ScheduleGroup(stack, 'Group', { scheduleGroupName: 'fleet-fuel-prod-jobs' });
  feed = new PriceFeed(stack, 'PriceFeed', {
    settings: stageSettings.prod,
    functionsDir: workDir,
    roles,
    environment: { STAGE: 'prod' },
    functionLogPrefix: '/fleet-fuel/prod/functions',
    group,
    schedulerRole: new Role(stack, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
    }),
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
const bucketId = () => id(feed.bucket);
const objectsUnder = (prefix: string) => ({ 'Fn::Join': ['', [arnOf(bucketId()), `/${prefix}*`]] });

describe('the price feed bucket', () => {
  it('is encrypted, private, TLS-only and versioned, and kept with production’s data', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[bucketId()] as Resource;

    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
    });
    expect(bucket.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(bucket.UpdateReplacePolicy).toBe('Retain');
    // enforceSSL: a bucket policy denying every request not over TLS.
    const policy = Object.values(template.findResources('AWS::S3::BucketPolicy'))[0] as Resource;
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('expires reports and replaced file versions after 90 days, never the current files', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[bucketId()] as Resource;

    expect(bucket.Properties.LifecycleConfiguration).toEqual({
      Rules: [
        { Id: 'ExpireReports', Prefix: 'reports/', ExpirationInDays: 90, Status: 'Enabled' },
        {
          Id: 'ExpireReplacedVersions',
          NoncurrentVersionExpiration: { NoncurrentDays: 90 },
          Status: 'Enabled',
        },
      ],
    });
  });

  it('sends its events to EventBridge from the bucket resource itself, without the notifications custom resource', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[bucketId()] as Resource;

    expect(bucket.Properties.NotificationConfiguration).toEqual({
      EventBridgeConfiguration: { EventBridgeEnabled: true },
    });
    expect(Object.keys(template.findResources('Custom::S3BucketNotifications'))).toEqual([]);
    // The probe's functions are the import and the freshness job: no custom resource handler.
    template.resourceCountIs('AWS::Lambda::Function', 2);
  });
});

describe('the import rule', () => {
  it('hands files created under incoming/ or dry-run/ of this bucket (never its reports) to the import function', () => {
    const rule = template.findResources('AWS::Events::Rule')[id(feed.importRule)] as Resource;

    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.s3'],
      'detail-type': ['Object Created'],
      detail: {
        bucket: { name: [{ Ref: bucketId() }] },
        object: { key: [{ prefix: 'incoming/' }, { prefix: 'dry-run/' }] },
      },
    });
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({
        Arn: arnOf(id(feed.importer.function)),
        RetryPolicy: { MaximumRetryAttempts: 4, MaximumEventAgeInSeconds: 7200 },
      }),
    ]);
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: arnOf(id(feed.importer.function)),
      Principal: 'events.amazonaws.com',
      SourceArn: arnOf(id(feed.importRule)),
    });
  });
});

describe('the import function', () => {
  it('runs its bundle with the bucket’s name, more memory and Lambda’s longest timeout (15 minutes: a file at the 50 MB cap writes for minutes), under its own role group', () => {
    const fn = template.findResources('AWS::Lambda::Function')[id(feed.importer.function)] as Resource;

    expect(fn.Properties).toMatchObject({
      Timeout: 900,
      MemorySize: 1024,
      Role: arnOf(id(roles.roleFor('price-feed-import'))),
      Environment: { Variables: { STAGE: 'prod', PRICE_FEED_BUCKET: { Ref: bucketId() } } },
    });
  });

  it('reads only incoming/ and dry-run/ files, writes only reports/, and nothing else on S3', () => {
    const s3 = statementsOf(id(roles.roleFor('price-feed-import'))).filter((s) =>
      asList(s.Action).some((action) => action.startsWith('s3:')),
    );

    expect(s3).toEqual([
      {
        Action: ['s3:GetObject', 's3:GetObjectVersion'],
        Effect: 'Allow',
        Resource: [objectsUnder('incoming/'), objectsUnder('dry-run/')],
      },
      { Action: 's3:PutObject', Effect: 'Allow', Resource: objectsUnder('reports/') },
    ]);
  });

  it('reads and writes the station catalog’s items of the table and no others', () => {
    const dynamo = statementsOf(id(roles.roleFor('price-feed-import'))).filter((s) =>
      asList(s.Action).some((action) => action.startsWith('dynamodb:')),
    );

    expect(dynamo).toEqual([
      {
        Action: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:BatchWriteItem'],
        Effect: 'Allow',
        Resource: arnOf(id(table)),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CATALOG#*'] } },
      },
    ]);
  });

  it('is retried once by Lambda after an infrastructure failure', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: id(feed.importer.function) },
      MaximumRetryAttempts: 1,
      MaximumEventAgeInSeconds: 3600,
    });
  });
});

describe('the freshness job', () => {
  it('runs every 15 minutes in the stage’s jobs group, on time', () => {
    const schedule = template.findResources('AWS::Scheduler::Schedule')[
      id(feed.freshnessSchedule)
    ] as Resource;

    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(15 minutes)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      GroupName: 'fleet-fuel-prod-jobs',
      Target: {
        Arn: arnOf(id(feed.freshness.function)),
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 900 },
      },
    });
  });

  it('may read the catalog’s items of the table and nothing else: no writes, no bucket', () => {
    const statements = statementsOf(id(roles.roleFor('price-freshness'))).filter(
      (s) => !asList(s.Action).some((action) => action.startsWith('logs:') || action.startsWith('xray:')),
    );

    expect(statements).toEqual([
      {
        Action: 'dynamodb:GetItem',
        Effect: 'Allow',
        Resource: arnOf(id(table)),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CATALOG#*'] } },
      },
    ]);
  });
});
