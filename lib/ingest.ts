import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ExecutionRoles } from './execution-roles.ts';
import { ServiceFunction } from './function-defaults.ts';
import { removalPolicyFor } from './removal.ts';
import { vehicleUpdatesEnvironment } from './service-environment.ts';
import type { StageSettings } from './stage.ts';
import { GUIDANCE_WORKER } from './worker-functions.ts';

/** Receives before SQS moves a vehicle update to the DLQ: the worker failed it five times in a row. */
export const VEHICLE_UPDATES_MAX_RECEIVE_COUNT = 5;

export interface VehicleUpdatesQueueProps {
  settings: StageSettings;
  /** The api role group is granted SendMessage here. */
  roles: ExecutionRoles;
}

/**
 * The vehicle-updates queue of one stage (docs/architecture.md) and its DLQ: ingest puts
 * `{ fleetId, vehicleId }` on it, the guidance worker consumes it. Apart from the worker
 * ({@link GuidanceWorker}) because every function's environment names the queue, the guidance worker's
 * included, while the worker's own environment also names the deliveries queue: queues first, then
 * the functions, as with the table.
 */
export class VehicleUpdatesQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  /** VEHICLE_UPDATES_QUEUE_URL: for every function's environment. */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: VehicleUpdatesQueueProps) {
    super(scope, id);
    // No fixed queue names, so a retained queue never blocks re-creating the stack.
    const removalPolicy = removalPolicyFor(props.settings.retainData);

    this.deadLetters = new Queue(this, 'DeadLetters', {
      // SQS-managed keys: no key to run, and nothing here needs a KMS grant.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's maximum: two weeks to find the fault and redrive (guidance is recomputed from stored
      // state, so a late message is harmless).
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's rule for Lambda consumers: at least six times the function's timeout, so a batch still
      // being retried after throttling is not delivered a second time meanwhile.
      visibilityTimeout: Duration.seconds(GUIDANCE_WORKER.timeoutSeconds * 6),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: VEHICLE_UPDATES_MAX_RECEIVE_COUNT },
      removalPolicy,
    });

    this.environment = vehicleUpdatesEnvironment({ queueUrl: this.queue.queueUrl });
    // Locations ingest enqueue the vehicle. SendMessage also covers
    // SendMessageBatch; no GetQueueUrl: the URL is in the environment.
    this.queue.grant(props.roles.roleFor('api'), 'sqs:SendMessage');
  }
}

export interface GuidanceWorkerProps {
  settings: StageSettings;
  /** Where scripts/bundle-functions.ts wrote `guidanceWorker/index.mjs`. */
  functionsDir: string;
  roles: ExecutionRoles;
  /** Every function's environment, both queues' variables included. */
  environment: Record<string, string>;
  functionLogPrefix: string;
  vehicleUpdates: VehicleUpdatesQueue;
  /** The webhook deliveries queue: the events the worker records fan out to it. */
  deliveries: IQueue;
}

/**
 * The guidance worker: consumes vehicle-updates in batches and reports failed records only, so one
 * vehicle's fault does not send its batch-mates round again. Its role group (`guidance-worker`) reads
 * and writes the table and routes (lib/execution-roles.ts); here it is also allowed to consume its
 * queue and to fan the events it records out to the deliveries queue, and nothing more on SQS.
 */
export class GuidanceWorker extends Construct {
  readonly worker: ServiceFunction;

  constructor(scope: Construct, id: string, props: GuidanceWorkerProps) {
    super(scope, id);
    const role = props.roles.roleFor(GUIDANCE_WORKER.role);
    this.worker = new ServiceFunction(this, 'Worker', {
      name: GUIDANCE_WORKER.name,
      functionsDir: props.functionsDir,
      role,
      environment: props.environment,
      logPrefix: props.functionLogPrefix,
      retainLogs: props.settings.retainData,
      description: GUIDANCE_WORKER.description,
      timeout: Duration.seconds(GUIDANCE_WORKER.timeoutSeconds),
    });
    // Grants the role what consuming takes (ReceiveMessage, DeleteMessage, ChangeMessageVisibility, …).
    this.worker.function.addEventSource(
      new SqsEventSource(props.vehicleUpdates.queue, {
        batchSize: 10,
        // A fleet's vehicles report at about the same moment; a second's wait lets their updates share
        // an invocation, and guidance is still fresh well within a reporting interval.
        maxBatchingWindow: Duration.seconds(1),
        // One vehicle's fault must not recompute its whole batch again (Powertools BatchProcessor).
        reportBatchItemFailures: true,
        // A backlog (after an outage) drains at this many invocations at once instead of taking the
        // account's whole Lambda concurrency from the API (docs/scaling.md).
        maxConcurrency: props.settings.consumerConcurrency.guidanceWorker,
      }),
    );
    props.deliveries.grant(role, 'sqs:SendMessage');
  }
}
