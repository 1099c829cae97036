import { ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ExecutionRoles } from './execution-roles.ts';
import { ServiceFunction } from './function-defaults.ts';
import { removalPolicyFor } from './removal.ts';
import { deliveryPipelineEnvironment } from './service-environment.ts';
import type { StageSettings } from './stage.ts';
import { WEBHOOK_DISPATCHER } from './worker-functions.ts';

/** Receives before SQS moves a delivery message to the DLQ (the dispatcher's own faults, not receiver failures). */
export const DELIVERY_MAX_RECEIVE_COUNT = 5;

export interface WebhooksProps {
  settings: StageSettings;
  /** Where scripts/bundle-functions.ts wrote `webhookDispatcher/index.mjs`. */
  functionsDir: string;
  roles: ExecutionRoles;
  /** The service environment every function gets; the dispatcher gets it plus {@link Webhooks.environment}. */
  environment: Record<string, string>;
  functionLogPrefix: string;
}

/**
 * The webhook delivery pipeline of one stage (docs/architecture.md): the deliveries queue and its DLQ,
 * the dispatcher Lambda consuming it, and the Scheduler group and role that bring retries back to the
 * queue. Grants are made here, beside the resources: the API functions may send to the deliveries
 * queue (they fan events out); the dispatcher may send to both queues, create one-time schedules in
 * this group only, and pass the Scheduler role to Scheduler only.
 */
export class Webhooks extends Construct {
  readonly deliveries: Queue;
  readonly deadLetters: Queue;
  readonly retrySchedules: ScheduleGroup;
  /** What Scheduler assumes to send a retry to the deliveries queue. */
  readonly schedulerRole: Role;
  readonly dispatcher: ServiceFunction;
  /** DELIVERIES_QUEUE_URL and the rest: for every function's environment. */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    const { settings } = props;
    const timeout = Duration.seconds(WEBHOOK_DISPATCHER.timeoutSeconds);
    // No fixed queue names, so a retained queue never blocks re-creating the stack.
    const queueRemoval = removalPolicyFor(settings.retainData);

    this.deadLetters = new Queue(this, 'DeadLetters', {
      // SQS-managed keys: Scheduler can send to the queue without a KMS grant, and there is no key to run.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's maximum: two weeks to look into a delivery the dispatcher could not handle.
      retentionPeriod: Duration.days(14),
      removalPolicy: queueRemoval,
    });
    this.deliveries = new Queue(this, 'Deliveries', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's rule for Lambda consumers: at least six times the function's timeout, so a batch still
      // being retried after throttling is not delivered a second time meanwhile.
      visibilityTimeout: Duration.seconds(WEBHOOK_DISPATCHER.timeoutSeconds * 6),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: DELIVERY_MAX_RECEIVE_COUNT },
      removalPolicy: queueRemoval,
    });

    const scheduleGroupName = `fleet-fuel-${settings.stage}-webhook-retries`;
    this.retrySchedules = new ScheduleGroup(this, 'RetrySchedules', {
      scheduleGroupName,
      // Its name is fixed (readable in the console, named in IAM), so keeping it would block the next
      // deploy; and its pending retries have no queue left once the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      description: `Scheduler sends webhook retries to the ${settings.stage} deliveries queue`,
      // Confused-deputy guard (Scheduler's guidance): only schedules of this group may assume it.
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
          ArnEquals: { 'aws:SourceArn': this.retrySchedules.scheduleGroupArn },
        },
      }),
    });
    this.deliveries.grant(this.schedulerRole, 'sqs:SendMessage');

    this.environment = deliveryPipelineEnvironment({
      queueUrl: this.deliveries.queueUrl,
      queueArn: this.deliveries.queueArn,
      deadLetterQueueUrl: this.deadLetters.queueUrl,
      schedulerRoleArn: this.schedulerRole.roleArn,
      scheduleGroupName,
    });

    const dispatcherRole = props.roles.roleFor('webhook-dispatcher');
    this.dispatcher = new ServiceFunction(this, 'Dispatcher', {
      name: WEBHOOK_DISPATCHER.name,
      functionsDir: props.functionsDir,
      role: dispatcherRole,
      environment: { ...props.environment, ...this.environment },
      logPrefix: props.functionLogPrefix,
      retainLogs: settings.retainData,
      description: WEBHOOK_DISPATCHER.description,
      timeout,
    });
    // Grants ReceiveMessage/DeleteMessage/ChangeMessageVisibility on the deliveries queue to the role.
    this.dispatcher.function.addEventSource(
      new SqsEventSource(this.deliveries, {
        batchSize: 10,
        // Fan-out sends an event's deliveries together; a second's wait lets them share an invocation.
        maxBatchingWindow: Duration.seconds(1),
        // One delivery's fault must not send its whole batch round again (Powertools BatchProcessor).
        reportBatchItemFailures: true,
        // A backlog of deliveries (receivers down for hours, then back) drains at this pace rather
        // than taking the concurrency ingest and the API need.
        maxConcurrency: settings.consumerConcurrency.webhookDispatcher,
      }),
    );

    // SendMessage also covers SendMessageBatch. No GetQueueUrl/GetQueueAttributes: the URL is in the env.
    this.deliveries.grant(props.roles.roleFor('api'), 'sqs:SendMessage');
    this.deliveries.grant(dispatcherRole, 'sqs:SendMessage');
    this.deadLetters.grant(dispatcherRole, 'sqs:SendMessage');
    const schedulesInGroup = Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${scheduleGroupName}/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    dispatcherRole.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['scheduler:CreateSchedule'], resources: [schedulesInGroup] }),
    );
    dispatcherRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.schedulerRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    Validations.of(dispatcherRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${scheduleGroupName}/*]`,
      reason:
        'Each retry is a one-time schedule named after its delivery and attempt, created at run time; ' +
        'the ARN limits the dispatcher to schedules of this stage’s retry group.',
    });
  }
}
