import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { MessageQueue } from '../ports/queue.ts';
import type { OneTimeScheduler } from '../ports/scheduler.ts';
import { createEventBridgeScheduler } from './eventbridge-scheduler.ts';
import { createSqsQueue } from './sqs-queue.ts';

/**
 * The environment the webhook delivery pipeline and the vehicle-updates queue read, named once:
 * lib/service-environment.ts sets these on every function, and the local stack sets `LOCAL_PIPELINE`.
 */
export const DELIVERY_PIPELINE_ENV = {
  queueUrl: 'DELIVERIES_QUEUE_URL',
  queueArn: 'DELIVERIES_QUEUE_ARN',
  deadLetterQueueUrl: 'DELIVERIES_DLQ_URL',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  scheduleGroupName: 'SCHEDULE_GROUP_NAME',
  /** The vehicle-updates queue the guidance worker consumes (sent by locations ingest). */
  vehicleUpdatesQueueUrl: 'VEHICLE_UPDATES_QUEUE_URL',
  /** `1` in the local stack's stage servers: use the in-process adapters registered there. */
  local: 'LOCAL_PIPELINE',
} as const;

/** The in-process adapters a local stage server runs (local/workers.ts registers them all). */
export interface LocalPipeline {
  queue: MessageQueue<unknown>;
  scheduler: OneTimeScheduler<unknown>;
  deadLetterQueue?: MessageQueue<unknown>;
  /** The in-process vehicle-updates queue, consumed by the guidance worker. */
  vehicleUpdates?: MessageQueue<unknown>;
}

// Module state is per container (per process locally), like the clients below.
let localPipeline: LocalPipeline | undefined;
let sqsClient: SQSClient | undefined;
let queue: MessageQueue<unknown> | undefined;
let deadLetters: MessageQueue<unknown> | undefined;
let scheduler: OneTimeScheduler<unknown> | undefined;
let vehicleUpdates: MessageQueue<unknown> | undefined;

/**
 * Makes the factories below hand out these adapters when `LOCAL_PIPELINE=1`. The registry lives here,
 * not in local/, so that Lambda bundles never import local code.
 */
export function registerLocalPipeline(pipeline: LocalPipeline): void {
  localPipeline = pipeline;
}

/** Forgets the registration and the memoized adapters (tests). */
export function resetDeliveryPipeline(): void {
  localPipeline = undefined;
  sqsClient = undefined;
  queue = undefined;
  deadLetters = undefined;
  scheduler = undefined;
  vehicleUpdates = undefined;
}

/**
 * The deliveries queue, which the webhook dispatcher consumes: SQS at `DELIVERIES_QUEUE_URL`, or the
 * local stack's in-process queue. Created once per container.
 *
 * @example
 * await deliveryQueue<DeliveryMessage>().send(deliveries.map(toMessage));
 */
export function deliveryQueue<T>(env: NodeJS.ProcessEnv = process.env): MessageQueue<T> {
  if (isLocal(env)) return { send: async (messages) => registered('queue').send(messages) };
  queue ??= createSqsQueue({
    queueUrl: required(env, DELIVERY_PIPELINE_ENV.queueUrl),
    client: sharedSqsClient(),
  });
  return queue as MessageQueue<T>;
}

/**
 * The vehicle-updates queue, which the guidance worker consumes: SQS at `VEHICLE_UPDATES_QUEUE_URL`,
 * or the local stack's in-process queue. Created once per container.
 *
 * @example
 * await vehicleUpdatesQueue<VehicleUpdateMessage>().send([{ fleetId, vehicleId }]);
 */
export function vehicleUpdatesQueue<T>(env: NodeJS.ProcessEnv = process.env): MessageQueue<T> {
  if (isLocal(env)) return { send: async (messages) => registered('vehicleUpdates').send(messages) };
  vehicleUpdates ??= createSqsQueue({
    queueUrl: required(env, DELIVERY_PIPELINE_ENV.vehicleUpdatesQueueUrl),
    client: sharedSqsClient(),
  });
  return vehicleUpdates as MessageQueue<T>;
}

/**
 * The deliveries dead-letter queue: SQS at `DELIVERIES_DLQ_URL` (SQS's redrive moves messages there
 * too), or the local queue's in-memory list. The dispatcher sends a delivery here once it has
 * exhausted its attempts.
 */
export function deadLetterQueue<T>(env: NodeJS.ProcessEnv = process.env): MessageQueue<T> {
  if (isLocal(env)) return { send: async (messages) => registered('deadLetterQueue').send(messages) };
  deadLetters ??= createSqsQueue({
    queueUrl: required(env, DELIVERY_PIPELINE_ENV.deadLetterQueueUrl),
    client: sharedSqsClient(),
  });
  return deadLetters as MessageQueue<T>;
}

/**
 * Brings a failed delivery back to the deliveries queue later: EventBridge Scheduler one-time
 * schedules in `SCHEDULE_GROUP_NAME`, sent to `DELIVERIES_QUEUE_ARN` as `SCHEDULER_ROLE_ARN`; or the
 * local stack's timers.
 *
 * @example
 * await retryScheduler<DeliveryMessage>().scheduleOnce(`${deliveryId}-attempt-${attempt}`, at, message);
 */
export function retryScheduler<T>(env: NodeJS.ProcessEnv = process.env): OneTimeScheduler<T> {
  if (isLocal(env)) {
    return {
      scheduleOnce: async (name, at, message) => registered('scheduler').scheduleOnce(name, at, message),
    };
  }
  scheduler ??= createEventBridgeScheduler({
    queueArn: required(env, DELIVERY_PIPELINE_ENV.queueArn),
    roleArn: required(env, DELIVERY_PIPELINE_ENV.schedulerRoleArn),
    groupName: required(env, DELIVERY_PIPELINE_ENV.scheduleGroupName),
    client: new SchedulerClient({ maxAttempts: 3 }),
  });
  return scheduler as OneTimeScheduler<T>;
}

function isLocal(env: NodeJS.ProcessEnv): boolean {
  return env[DELIVERY_PIPELINE_ENV.local] === '1';
}

/**
 * Looked up on every call, not when the factory is called: a handler module may take its adapters at
 * import time, before the stage server has registered the pipeline.
 */
function registered<K extends keyof LocalPipeline>(part: K): NonNullable<LocalPipeline[K]> {
  const adapter = localPipeline?.[part];
  if (!adapter) {
    throw new Error(
      `${DELIVERY_PIPELINE_ENV.local}=1 but no local ${part} is registered (local/workers.ts registers it)`,
    );
  }
  return adapter as NonNullable<LocalPipeline[K]>;
}

function sharedSqsClient(): SQSClient {
  sqsClient ??= new SQSClient({ maxAttempts: 3 });
  return sqsClient;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}
