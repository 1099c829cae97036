import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from './observability.ts';
import { type SqsBatchOptions, sqsBatchHandler } from './sqs-batch.ts';

/** What a keyed worker does with one record's message. */
export interface KeyedWork<M> {
  /**
   * The message a record's body carries, or null when it is malformed: a malformed message is
   * logged and dropped, since redelivering it cannot fix it. `receiveCount` above 1 means SQS
   * delivers it again (a failed or timed-out earlier attempt).
   */
  parse: (body: string, receiveCount: number) => M | null;
  /** Messages with the same key run one after another, in batch order; other keys alongside. */
  keyOf: (message: M) => string;
  process: (message: M) => Promise<void>;
}

export interface KeyedSqsBatchOptions<M> extends KeyedWork<M>, SqsBatchOptions {
  /** The log message of a dropped (malformed) record. */
  dropped: string;
}

/**
 * An SQS batch handler (./sqs-batch.ts: only failed records are reported, so SQS redelivers just
 * those) whose messages of one key run one after another in this container. A failed message
 * fails its record alone and does not stop the next message of its key.
 *
 * @example
 * export const handler = sqsKeyedBatchHandler({
 *   parse: (body) => parseUpdate(body), keyOf: (update) => update.vehicleId, process: runCycle,
 *   dropped: 'Dropped a malformed update', failure: 'Cycle failed', idsOf: () => ({}),
 * });
 */
export function sqsKeyedBatchHandler<M>(
  options: KeyedSqsBatchOptions<M>,
): (event: SQSEvent, context: Context) => ReturnType<ReturnType<typeof sqsBatchHandler>> {
  const oneAtATime = oneAtATimePerKey();
  const processRecord = async (record: SQSRecord): Promise<void> => {
    const message = options.parse(record.body, Number(record.attributes?.ApproximateReceiveCount ?? 1));
    if (message === null) {
      logger.error(options.dropped, { messageId: record.messageId });
      return;
    }
    await oneAtATime(options.keyOf(message), () => options.process(message));
  };
  return sqsBatchHandler(processRecord, options);
}

/**
 * Runs the tasks of one key one after another, in the order they were handed in, and tasks of
 * other keys alongside. A task that fails fails its own caller only: the next task of its key
 * still runs.
 */
export function oneAtATimePerKey() {
  const running = new Map<string, Promise<unknown>>();
  return async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const current = (running.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
    running.set(key, current);
    try {
      return await current;
    } finally {
      if (running.get(key) === current) running.delete(key);
    }
  };
}
