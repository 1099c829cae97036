import { type Clock, systemClock } from '#shared/kernel/time.ts';
import type { Stage } from '#shared/platform/config.ts';
import type { MessageQueue } from '#shared/platform/ports/queue.ts';
import type { OneTimeScheduler } from '#shared/platform/ports/scheduler.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import { createDocumentClient, createDynamoClient } from '#shared/table/dynamo-client.ts';
import type { VehicleUpdateMessage } from '#shared/tracking/domain/messages.ts';
import type { DeliveryMessage } from '#shared/webhooks/domain/delivery.ts';
import type { Infrastructure } from '#shared/wiring/infrastructure.ts';
import { dynamoDbEndpoint } from './dynamodb.ts';

/** A queue that keeps what was sent, for the test to read or to run the consumer on. */
export interface RecordingQueue<T> extends MessageQueue<T> {
  readonly messages: T[];
  /** Hands over the messages sent so far and forgets them, as a consumer's receive would. */
  take(): T[];
}

export function recordingQueue<T>(): RecordingQueue<T> {
  const messages: T[] = [];
  return {
    messages,
    send: async (sent) => {
      messages.push(...sent);
    },
    take: () => messages.splice(0),
  };
}

export interface TestInfrastructure extends Infrastructure {
  sent: {
    vehicleUpdates: RecordingQueue<VehicleUpdateMessage>;
    deliveries: RecordingQueue<DeliveryMessage>;
    deliveryDeadLetters: RecordingQueue<DeliveryMessage>;
    deliveryRetries: { name: string; at: Date; message: DeliveryMessage }[];
  };
}

/**
 * The composition root's input for integration tests and benchmarks: DynamoDB Local (or the given
 * endpoint), the given table and clock, and queues that record what they are sent. Hand it to the
 * same wiring factories Lambda uses, e.g. `truckRouteDeps(infra)`.
 */
export function testInfrastructure(options: {
  tableName: string;
  /** The control plane's table; default: the same table (item keys never collide). */
  controlTableName?: string;
  clock?: Clock;
  stage?: Stage;
  endpoint?: string;
}): TestInfrastructure {
  const dynamo = createDynamoClient({
    region: process.env.AWS_REGION ?? 'us-east-1',
    endpoint: options.endpoint ?? dynamoDbEndpoint(),
  });
  const clock = options.clock ?? systemClock;
  const sent: TestInfrastructure['sent'] = {
    vehicleUpdates: recordingQueue(),
    deliveries: recordingQueue(),
    deliveryDeadLetters: recordingQueue(),
    deliveryRetries: [],
  };
  const deliveryRetries: OneTimeScheduler<DeliveryMessage> = {
    scheduleOnce: async (name, at, message) => {
      sent.deliveryRetries.push({ name, at, message });
    },
  };
  return {
    config: {
      stage: options.stage ?? 'prod',
      tableName: options.tableName,
      controlTableName: options.controlTableName ?? options.tableName,
      region: process.env.AWS_REGION ?? 'us-east-1',
      routingEngine: 'embedded',
      webhookTargets: 'public',
    },
    dynamo,
    client: createDocumentClient(dynamo),
    cursors: createCursorCodec('test-cursor-key', clock.now),
    queues: {
      vehicleUpdates: () => sent.vehicleUpdates,
      deliveries: () => sent.deliveries,
      deliveryDeadLetters: () => sent.deliveryDeadLetters,
    },
    deliveryRetries,
    clock,
    sent,
  };
}
