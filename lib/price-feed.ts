import { type CfnResource, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { ScheduleExpression, type ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { PRICE_FEED_BUCKET_ENV, PRICE_FEED_PREFIXES } from '#shared/platform/price-feed-config.ts';
import type { ExecutionRoles } from './execution-roles.ts';
import { ServiceFunction } from './function-defaults.ts';
import { scheduleJob } from './jobs.ts';
import { removalPolicyFor } from './removal.ts';
import type { StageSettings } from './stage.ts';
import { PRICE_FEED_IMPORT, PRICE_FRESHNESS } from './worker-functions.ts';

/** How long import reports and replaced versions of price files are kept. */
export const PRICE_FEED_RETENTION = Duration.days(90);
/** How often the freshness job reports the newest price's age (the stale-price alarm's input). */
export const PRICE_FRESHNESS_RATE = Duration.minutes(PRICE_FRESHNESS.rateMinutes);

export interface PriceFeedProps {
  settings: StageSettings;
  functionsDir: string;
  roles: ExecutionRoles;
  /** Every function's environment; the import function gets the bucket's name on top. */
  environment: Record<string, string>;
  functionLogPrefix: string;
  /** The stage's jobs group and the role Scheduler assumes to run its jobs (lib/jobs.ts). */
  group: ScheduleGroup;
  schedulerRole: Role;
}

/**
 * Production's station and price feed (docs/price-feed.md, docs/operations.md): a bucket the price
 * provider drops files into, an EventBridge rule that hands each new file under `incoming/` (publish)
 * or `dry-run/` (diff only) to the import function, which writes its report under `reports/`; and
 * the freshness job whose metric the stale-price alarm watches. The sandbox has none of it: it serves
 * the synthetic catalog by design.
 */
export class PriceFeed extends Construct {
  readonly bucket: Bucket;
  readonly importer: ServiceFunction;
  readonly importRule: Rule;
  readonly freshness: ServiceFunction;
  readonly freshnessSchedule: ReturnType<typeof scheduleJob>;

  constructor(scope: Construct, id: string, props: PriceFeedProps) {
    super(scope, id);
    const { settings } = props;

    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      // A file the provider overwrites keeps its predecessor, so a bad publish can be traced to its input.
      versioned: true,
      lifecycleRules: [
        { id: 'ExpireReports', prefix: PRICE_FEED_PREFIXES.reports, expiration: PRICE_FEED_RETENTION },
        { id: 'ExpireReplacedVersions', noncurrentVersionExpiration: PRICE_FEED_RETENTION },
      ],
      // No autoDeleteObjects: its custom resource would be the stack's only one, and prod keeps the files.
      removalPolicy: removalPolicyFor(settings.retainData),
    });
    // EventBridge delivery straight on the bucket resource: `eventBridgeEnabled` would add CDK's
    // BucketNotifications custom resource (a Lambda and a role) to set the same property.
    (this.bucket.node.defaultChild as CfnBucket).addPropertyOverride(
      'NotificationConfiguration.EventBridgeConfiguration.EventBridgeEnabled',
      true,
    );
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'One provider writes here and the import function reads; each file’s outcome is its report under ' +
        'reports/ and the function’s logs. Server access logs would need a second bucket for no new question answered.',
    });

    const importRole = props.roles.roleFor(PRICE_FEED_IMPORT.role);
    this.importer = new ServiceFunction(this, 'Import', {
      name: PRICE_FEED_IMPORT.name,
      functionsDir: props.functionsDir,
      role: importRole,
      environment: { ...props.environment, [PRICE_FEED_BUCKET_ENV]: this.bucket.bucketName },
      logPrefix: props.functionLogPrefix,
      retainLogs: settings.retainData,
      description: PRICE_FEED_IMPORT.description,
      timeout: Duration.seconds(PRICE_FEED_IMPORT.timeoutSeconds),
      memorySize: PRICE_FEED_IMPORT.memoryMb,
    });
    // It throws only on infrastructure failures (a refused file is an outcome, not an error): one
    // retry rides out a throttled table; every failed run pages (PriceFeedImportFailed).
    this.importer.function.configureAsyncInvoke({ retryAttempts: 1, maxEventAge: Duration.hours(1) });
    this.grantFiles(importRole);

    this.importRule = new Rule(this, 'ImportRule', {
      description: `Price files dropped into the ${settings.stage} price feed bucket go to the import`,
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: {
          bucket: { name: [this.bucket.bucketName] },
          // Its own reports (reports/) must never trigger it.
          object: {
            key: Match.anyOf(
              Match.prefix(PRICE_FEED_PREFIXES.publish),
              Match.prefix(PRICE_FEED_PREFIXES.dryRun),
            ),
          },
        },
      },
      targets: [
        new LambdaFunction(this.importer.function, { retryAttempts: 4, maxEventAge: Duration.hours(2) }),
      ],
    });

    this.freshness = new ServiceFunction(this, 'Freshness', {
      name: PRICE_FRESHNESS.name,
      functionsDir: props.functionsDir,
      role: props.roles.roleFor(PRICE_FRESHNESS.role),
      environment: props.environment,
      logPrefix: props.functionLogPrefix,
      retainLogs: settings.retainData,
      description: PRICE_FRESHNESS.description,
      timeout: Duration.seconds(PRICE_FRESHNESS.timeoutSeconds),
    });
    // The next run reports the same age a quarter of an hour later: no retries.
    this.freshness.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: PRICE_FRESHNESS_RATE });
    this.freshnessSchedule = scheduleJob(this, 'FreshnessSchedule', {
      job: this.freshness,
      label: 'price freshness',
      description: PRICE_FRESHNESS.description,
      group: props.group,
      schedulerRole: props.schedulerRole,
      schedule: ScheduleExpression.rate(PRICE_FRESHNESS_RATE),
      maxEventAge: PRICE_FRESHNESS_RATE,
    });
  }

  /** Read the files under `incoming/` and `dry-run/`, write reports under `reports/`; nothing else. */
  private grantFiles(role: Role): void {
    const under = (prefix: string) => this.bucket.arnForObjects(`${prefix}*`);
    role.addToPrincipalPolicy(
      new PolicyStatement({
        // The import reads the version the event announced (the bucket is versioned), not a newer upload.
        actions: ['s3:GetObject', 's3:GetObjectVersion'],
        resources: [under(PRICE_FEED_PREFIXES.publish), under(PRICE_FEED_PREFIXES.dryRun)],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [under(PRICE_FEED_PREFIXES.reports)] }),
    );
    const bucketId = Stack.of(this).resolve((this.bucket.node.defaultChild as CfnResource).logicalId);
    Validations.of(role).acknowledge(
      ...Object.values(PRICE_FEED_PREFIXES).map((prefix) => ({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
        reason: `Price files and reports are named by the provider and the date: every object under ${prefix}.`,
      })),
    );
  }
}
