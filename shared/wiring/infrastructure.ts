import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type Clock, systemClock } from '#shared/kernel/time.ts';
import { readConfig, type ServiceConfig } from '#shared/platform/config.ts';
import type { OneTimeScheduler } from '#shared/platform/ports/scheduler.ts';
import { type CursorCodec, createCursorCodec } from '#shared/table/cursor.ts';
import {
  createDocumentClient,
  createDynamoClient,
  type DocumentClient,
} from '#shared/table/dynamo-client.ts';
import type { DeliveryMessage } from '#shared/webhooks/domain/delivery.ts';
import type { MessageQueues } from './message-queues.ts';
import { once } from './once.ts';

/**
 * What every feature's wiring builds from: the configuration, the clients, the queues and the
 * clock. Lambda and the local stage servers get it from the environment ({@link infrastructure});
 * integration tests and benchmarks build one around DynamoDB Local, a test table, fake queues and
 * a fixed clock, and hand it to the same feature factories.
 */
export interface Infrastructure {
  config: Pick<
    ServiceConfig,
    'stage' | 'tableName' | 'controlTableName' | 'region' | 'routingEngine' | 'webhookTargets'
  > &
    Partial<Pick<ServiceConfig, 'localStack' | 'sandboxTableName'>>;
  /** The low-level client (Powertools' idempotency layer takes this one). */
  dynamo: DynamoDBClient;
  client: DocumentClient;
  cursors: CursorCodec;
  /**
   * The queues to send to; absent means the environment's (SQS, or the local stack's in-process
   * queues), which `queuesOf` builds on first use, so only functions that send bundle the SQS client.
   */
  queues?: MessageQueues;
  /** Likewise the webhook retry scheduler (`deliveryRetriesOf`). */
  deliveryRetries?: OneTimeScheduler<DeliveryMessage>;
  clock: Clock;
}

/** The environment's infrastructure: clients created once, outside handlers, reused across invocations. */
export function createInfrastructure(env: NodeJS.ProcessEnv = process.env): Infrastructure {
  const config = readConfig(env);
  const dynamo = createDynamoClient({ region: config.region, endpoint: config.dynamoEndpoint });
  return {
    config,
    dynamo,
    client: createDocumentClient(dynamo),
    cursors: createCursorCodec(config.cursorSigningKey),
    clock: systemClock,
  };
}

/** The container's infrastructure, built on first use (never at import time). */
export const infrastructure = /* @__PURE__ */ once(() => createInfrastructure());

/**
 * A function of the infrastructure remembered per infrastructure: the container's wiring builds
 * each store or provider once, and a test's infrastructure gets its own.
 */
export function perInfrastructure<T>(build: (infra: Infrastructure) => T): (infra?: Infrastructure) => T {
  const built = new WeakMap<Infrastructure, T>();
  return (infra = infrastructure()) => {
    let value = built.get(infra);
    if (value === undefined) {
      value = build(infra);
      built.set(infra, value);
    }
    return value;
  };
}
