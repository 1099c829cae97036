import { createHash, randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { MessageQueue } from '#shared/platform/ports/queue.ts';
import { emptyQueueUsage, type QueueUsage, sqsBilledRequests } from './usage.ts';

/** What a Lambda SQS event source invokes: the dispatcher's handler, minus the context. */
// biome-ignore lint/suspicious/noConfusingVoidType: aws-lambda's SQSHandler returns `SQSBatchResponse | void`; an async handler that returns nothing must fit.
export type SqsConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** The local stand-in for the deliveries DLQ: what was sent to it, in order, kept in memory. */
export interface InMemoryDeadLetterQueue<T> extends MessageQueue<T> {
  readonly messages: readonly T[];
}

export interface InProcessQueueOptions {
  /** The queue's name in `eventSourceARN`, e.g. `fleet-fuel-prod-deliveries`. */
  name: string;
  region?: string;
  /** Records per consumer call, like the event source mapping's batch size. Default 10. */
  batchSize?: number;
  /**
   * How long a record reported in `batchItemFailures` stays invisible before it is delivered again.
   * Default 1 s: locally, a retry should be seen, not waited for (deployed it is minutes).
   */
  visibilityTimeoutMs?: number;
  /** Receives before a record moves to the dead-letter queue, like the redrive policy. Default 5. */
  maxReceiveCount?: number;
  /** Consumer calls at once (Lambda scales out per batch; one slow receiver must not hold up the rest). Default 4. */
  maxConcurrentBatches?: number;
  /** One line per consumer fault and per record moved to the dead-letter queue. Default: silent. */
  log?: (line: string) => void;
}

/** An SQS queue and its event source mapping, in one process. */
export interface InProcessQueue<T> extends MessageQueue<T> {
  readonly arn: string;
  readonly deadLetterQueue: InMemoryDeadLetterQueue<T>;
  /** Starts delivering, including what was sent before; one consumer, as one event source mapping. */
  subscribe(consumer: SqsConsumer): void;
  /** Resolves once nothing is waiting, being consumed or waiting out a visibility timeout. */
  idle(): Promise<void>;
  /** Drops waiting records and clears timers; later sends reject. */
  stop(): void;
  /** The SQS API requests this queue would have been billed for so far (local/usage.ts). */
  usage(): QueueUsage;
}

interface QueuedMessage {
  messageId: string;
  body: string;
  sentAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
}

/**
 * The local stack's deliveries queue: messages sent here reach the subscribed consumer asynchronously
 * (never inside `send`, as with SQS), as SQS-shaped events of up to `batchSize` records. A record the
 * consumer reports in `batchItemFailures`, or every record of a batch whose consumer throws, comes back
 * after `visibilityTimeoutMs` with its `ApproximateReceiveCount` raised; after `maxReceiveCount`
 * receives it moves to {@link InProcessQueue.deadLetterQueue}. As with Lambda, a failure report that
 * names a record not in the batch fails the whole batch.
 *
 * @example
 * const queue = createInProcessQueue<DeliveryMessage>({ name: 'fleet-fuel-prod-deliveries' });
 * queue.subscribe((event) => dispatcher(event, context));
 * await queue.send([{ deliveryId: 'whd_…' }]);
 */
export function createInProcessQueue<T>(options: InProcessQueueOptions): InProcessQueue<T> {
  const region = options.region ?? 'us-east-1';
  const arn = `arn:aws:sqs:${region}:000000000000:${options.name}`;
  const batchSize = options.batchSize ?? 10;
  const visibilityTimeoutMs = options.visibilityTimeoutMs ?? 1_000;
  const maxReceiveCount = options.maxReceiveCount ?? 5;
  const maxConcurrentBatches = options.maxConcurrentBatches ?? 4;
  const log = options.log ?? (() => {});

  const ready: QueuedMessage[] = [];
  const invisible = new Set<NodeJS.Timeout>();
  let activeBatches = 0;
  let consumer: SqsConsumer | undefined;
  let pumpPending: NodeJS.Immediate | undefined;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  const deadLetters: T[] = [];
  const usage = emptyQueueUsage();
  const bodyBytes = (messages: readonly QueuedMessage[]) =>
    messages.reduce((sum, message) => sum + Buffer.byteLength(message.body), 0);
  const deadLetterQueue: InMemoryDeadLetterQueue<T> = {
    messages: deadLetters,
    async send(messages) {
      deadLetters.push(...messages.map((message) => JSON.parse(toBody(message)) as T));
    },
  };

  const isIdle = () => ready.length === 0 && activeBatches === 0 && invisible.size === 0 && !pumpPending;
  const settleIdle = () => {
    if (!isIdle() && !stopped) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const schedulePump = () => {
    if (stopped || pumpPending) return;
    pumpPending = setImmediate(() => {
      pumpPending = undefined;
      pump();
      settleIdle();
    });
  };

  const pump = () => {
    if (stopped || !consumer) return;
    while (ready.length > 0 && activeBatches < maxConcurrentBatches) {
      const batch = ready.splice(0, batchSize);
      activeBatches += 1;
      void deliver(consumer, batch).finally(() => {
        activeBatches -= 1;
        schedulePump();
        settleIdle();
      });
    }
  };

  const deliver = async (consume: SqsConsumer, batch: QueuedMessage[]) => {
    // The event source mapping's ReceiveMessage that found this batch.
    usage.receiveRequests += 1;
    usage.billedRequests += sqsBilledRequests(bodyBytes(batch));
    const receivedAt = Date.now();
    for (const message of batch) {
      message.receiveCount += 1;
      message.firstReceivedAt ??= receivedAt;
    }
    let failed: ReadonlySet<string>;
    try {
      const response = await consume({ Records: batch.map((message) => toRecord(message, arn, region)) });
      failed = failedIds(response || undefined, batch);
    } catch (error) {
      log(`${options.name}: the consumer failed a batch of ${batch.length}: ${describe(error)}`);
      failed = new Set(batch.map((message) => message.messageId));
    }
    if (failed.size < batch.length) {
      // The event source mapping deletes the batch's successes in one DeleteMessageBatch.
      usage.deleteRequests += 1;
      usage.billedRequests += 1;
      usage.messagesDone += batch.length - failed.size;
    }
    returnToQueue(batch.filter((message) => failed.has(message.messageId)));
  };

  const returnToQueue = (failed: QueuedMessage[]) => {
    if (stopped || failed.length === 0) return;
    const returning: QueuedMessage[] = [];
    for (const message of failed) {
      if (message.receiveCount < maxReceiveCount) {
        returning.push(message);
        continue;
      }
      deadLetters.push(JSON.parse(message.body) as T);
      usage.messagesDone += 1;
      log(
        `${options.name}: message ${message.messageId} moved to the dead-letter queue after ${message.receiveCount} receives`,
      );
    }
    if (returning.length === 0) return;
    // The records of one batch become visible together, so they come back together.
    const timer = setTimeout(() => {
      invisible.delete(timer);
      ready.push(...returning);
      pump();
    }, visibilityTimeoutMs);
    // A pending redelivery must not keep a finished process (a test, a stopping server) alive.
    timer.unref();
    invisible.add(timer);
  };

  return {
    arn,
    deadLetterQueue,
    async send(messages) {
      if (stopped) throw new Error(`The in-process queue ${options.name} is stopped`);
      const sentAt = Date.now();
      const queued = messages.map(
        (message): QueuedMessage => ({
          messageId: randomUUID(),
          body: toBody(message),
          sentAt,
          receiveCount: 0,
        }),
      );
      ready.push(...queued);
      // As the deployed adapter sends them (shared/platform/adapters/sqs-queue.ts): SendMessageBatch calls of 10.
      for (let start = 0; start < queued.length; start += SEND_BATCH_SIZE) {
        usage.sendRequests += 1;
        usage.billedRequests += sqsBilledRequests(bodyBytes(queued.slice(start, start + SEND_BATCH_SIZE)));
      }
      usage.messagesSent += queued.length;
      schedulePump();
    },
    subscribe(next) {
      if (consumer) throw new Error(`The in-process queue ${options.name} already has a consumer`);
      consumer = next;
      schedulePump();
    },
    idle() {
      if (isIdle() || stopped) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    stop() {
      stopped = true;
      for (const timer of invisible) clearTimeout(timer);
      invisible.clear();
      if (pumpPending) clearImmediate(pumpPending);
      pumpPending = undefined;
      ready.length = 0;
      settleIdle();
    },
    usage: () => ({ ...usage, deadLetters: deadLetters.length }),
  };
}

/** SendMessageBatch takes at most 10 entries (SQS quota). */
const SEND_BATCH_SIZE = 10;

function toBody(message: unknown): string {
  const body = JSON.stringify(message);
  if (body === undefined) throw new TypeError('A queue message must be JSON-serializable');
  return body;
}

function toRecord(message: QueuedMessage, arn: string, region: string): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: `${message.messageId}#${message.receiveCount}`,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: 'LOCAL',
      ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(message.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: arn,
    awsRegion: region,
  };
}

/**
 * Lambda's partial batch response rules: no response or an empty list means all succeeded; an
 * identifier that is empty or not in the batch fails the whole batch.
 */
function failedIds(response: SQSBatchResponse | undefined, batch: QueuedMessage[]): ReadonlySet<string> {
  const inBatch = new Set(batch.map((message) => message.messageId));
  const reported = response?.batchItemFailures ?? [];
  const ids = reported.map((failure) => failure.itemIdentifier);
  if (ids.some((id) => !id || !inBatch.has(id))) return inBatch;
  return new Set(ids);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
