import type { SQSClient } from '@aws-sdk/client-sqs';
import { boundedClientConfig } from '#shared/platform/adapters/aws-call-limits.ts';
import { MESSAGING_ENV, required } from '#shared/platform/config.ts';
import type { MessageQueue } from '#shared/platform/ports/queue.ts';
import type { OneTimeScheduler } from '#shared/platform/ports/scheduler.ts';
import {
  toVehicleUpdateWire,
  type VehicleUpdateMessage,
  type VehicleUpdateWire,
} from '#shared/tracking/domain/messages.ts';
import type { DeliveryMessage } from '#shared/webhooks/domain/delivery.ts';
import { once } from './once.ts';

/**
 * The queues of a container: each accessor builds its adapter on first use and hands the same one
 * out afterwards. A function only builds what it sends to, so a missing variable of a queue it
 * never uses is no error. (The retry scheduler is wired apart, in retry-scheduler.ts, so that only
 * the functions that schedule retries bundle its client.)
 */
export interface MessageQueues {
  /** The deliveries queue, which the webhook dispatcher consumes. */
  deliveries(): MessageQueue<DeliveryMessage>;
  /** The deliveries dead-letter queue: the dispatcher sends a delivery here once it has exhausted its attempts. */
  deliveryDeadLetters(): MessageQueue<DeliveryMessage>;
  /** The vehicle-updates queue, which the guidance worker consumes (ingest sends to it). */
  vehicleUpdates(): MessageQueue<VehicleUpdateMessage>;
}

/** The in-process adapters a local stage server runs (local/workers.ts registers them all). */
export interface LocalMessageQueues {
  queue: MessageQueue<unknown>;
  scheduler: OneTimeScheduler<unknown>;
  deadLetterQueue?: MessageQueue<unknown>;
  vehicleUpdates?: MessageQueue<unknown>;
}

/**
 * One registration per process, like one container's queues. It lives here, not in local/, so that
 * Lambda bundles never import local code; and on `globalThis` under a registered symbol, not in a
 * module variable, because a stage server running the bundles (local/function-loader.ts) holds one
 * copy of this module per bundle besides its own: every copy must find the stage server's adapters.
 */
const LOCAL_PIPELINE_KEY = Symbol.for('fleet-fuel.local-pipeline');
const registry = globalThis as { [LOCAL_PIPELINE_KEY]?: LocalMessageQueues };

/** Makes queues built with `LOCAL_PIPELINE=1` hand their messages to these in-process adapters. */
export function registerLocalPipeline(queues: LocalMessageQueues): void {
  registry[LOCAL_PIPELINE_KEY] = queues;
}

/** Forgets the registration (tests). */
export function forgetLocalPipeline(): void {
  delete registry[LOCAL_PIPELINE_KEY];
}

/**
 * SQS queues as the environment names them (lib/service-environment.ts), or, with
 * `LOCAL_PIPELINE=1`, the local stack's in-process queues.
 *
 * @example
 * await createMessageQueues().vehicleUpdates().send([{ fleetId, vehicleId }]);
 */
export function createMessageQueues(env: NodeJS.ProcessEnv = process.env): MessageQueues {
  if (env[MESSAGING_ENV.local] === '1') return localMessageQueues();
  // The SQS client and adapter are imported on the first send (~25 KB of a cold start): many
  // functions wire a queue that only some requests send to (the webhook fan-out sends only when a
  // fleet has endpoints). In a Lambda bundle they are a lazy chunk (scripts/bundle-functions.ts).
  let sqsClient: Promise<SQSClient> | undefined;
  const sqs = () => {
    sqsClient ??= import('@aws-sdk/client-sqs').then(({ SQSClient }) => new SQSClient(boundedClientConfig()));
    return sqsClient;
  };
  const sqsQueue = <T>(urlVariable: string) =>
    once((): MessageQueue<T> => {
      const queueUrl = required(env, urlVariable);
      const adapter = once(async () => {
        const { createSqsQueue } = await import('#shared/platform/adapters/sqs-queue.ts');
        return createSqsQueue<T>({ queueUrl, client: await sqs() });
      });
      return { send: async (messages) => (await adapter()).send(messages) };
    });
  return {
    deliveries: sqsQueue<DeliveryMessage>(MESSAGING_ENV.deliveriesQueueUrl),
    deliveryDeadLetters: sqsQueue<DeliveryMessage>(MESSAGING_ENV.deliveriesDeadLetterQueueUrl),
    vehicleUpdates: onWire(sqsQueue<VehicleUpdateWire>(MESSAGING_ENV.vehicleUpdatesQueueUrl)),
  };
}

/**
 * Vehicle updates travel in their wire form (the ring as tuples: messages.ts), on SQS and on the
 * local stack's queue alike, so the worker parses what it will parse when deployed.
 */
function onWire(queue: () => MessageQueue<VehicleUpdateWire>): () => MessageQueue<VehicleUpdateMessage> {
  return once(() => {
    const wire = queue();
    return { send: (messages) => wire.send(messages.map(toVehicleUpdateWire)) };
  });
}

/**
 * The registration is looked up on every send, not when a queue is built: a handler module may
 * take its dependencies before the stage server has registered its adapters.
 */
function localMessageQueues(): MessageQueues {
  const forward = <T>(part: 'queue' | 'deadLetterQueue' | 'vehicleUpdates'): MessageQueue<T> => ({
    send: async (messages) => registered(part).send(messages),
  });
  const deliveries = forward<DeliveryMessage>('queue');
  const deliveryDeadLetters = forward<DeliveryMessage>('deadLetterQueue');
  const vehicleUpdates = onWire(() => forward<VehicleUpdateWire>('vehicleUpdates'));
  return {
    deliveries: () => deliveries,
    deliveryDeadLetters: () => deliveryDeadLetters,
    vehicleUpdates,
  };
}

/** The local stack's adapter for `part`; throws, naming it, when none is registered. */
export function registered<K extends keyof LocalMessageQueues>(part: K): NonNullable<LocalMessageQueues[K]> {
  const adapter = registry[LOCAL_PIPELINE_KEY]?.[part];
  if (!adapter) {
    throw new Error(
      `${MESSAGING_ENV.local}=1 but no local ${part} is registered (local/workers.ts registers it)`,
    );
  }
  return adapter as NonNullable<LocalMessageQueues[K]>;
}

/**
 * A queue resolved when it is first sent to, not when a use case's dependencies are built: a
 * missing variable then fails the send (after the writes before it), as an SQS outage would.
 */
export function sendingTo<T>(resolve: () => MessageQueue<T>): MessageQueue<T> {
  return { send: (messages) => resolve().send(messages) };
}

/** The container's queues, from the environment, built on first use. */
const environmentQueues = /* @__PURE__ */ once(() => createMessageQueues());

/** The queues an infrastructure sends to: its own (tests), else the environment's. */
export function queuesOf(infra: { queues?: MessageQueues | undefined }): MessageQueues {
  return infra.queues ?? environmentQueues();
}
