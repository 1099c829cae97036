import {
  type BatchResultErrorEntry,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { MessageQueue } from '../ports/queue.ts';
import { boundedClientConfig } from './aws-call-limits.ts';

/** SendMessageBatch takes at most 10 entries (SQS quota). */
export const SQS_BATCH_LIMIT = 10;

export interface SqsQueueOptions {
  queueUrl: string;
  /** Default: one client per adapter, created here (the factory memoizes the adapter per container). */
  client?: SQSClient;
}

/** Entries SQS refused twice (or once, when the fault is ours and a retry cannot help). */
export class QueueSendError extends Error {
  override readonly name = 'QueueSendError';
  readonly failures: readonly { code: string; message: string | undefined; senderFault: boolean }[];

  constructor(queueUrl: string, failures: readonly BatchResultErrorEntry[]) {
    const codes = [...new Set(failures.map((failure) => failure.Code ?? 'Unknown'))].join(', ');
    super(`${failures.length} message(s) were not sent to ${queueUrl} (${codes})`);
    this.failures = failures.map((failure) => ({
      code: failure.Code ?? 'Unknown',
      message: failure.Message,
      senderFault: failure.SenderFault ?? false,
    }));
  }
}

/**
 * A {@link MessageQueue} on SQS. Messages go out as JSON in SendMessageBatch calls of 10, sent
 * concurrently. SendMessageBatch succeeds per entry, so the entries it reports as failed are sent once
 * more; what fails again, or failed through our own fault (`SenderFault`, e.g. a body over the size
 * limit, which no retry fixes), makes `send` reject with a {@link QueueSendError} after every batch has
 * been tried.
 *
 * @example
 * const queue = createSqsQueue<DeliveryMessage>({ queueUrl: process.env.DELIVERIES_QUEUE_URL });
 * await queue.send(messages);
 */
export function createSqsQueue<T>(options: SqsQueueOptions): MessageQueue<T> {
  const { queueUrl } = options;
  const client = options.client ?? new SQSClient(boundedClientConfig());

  const sendBatch = async (entries: SendMessageBatchRequestEntry[]): Promise<BatchResultErrorEntry[]> => {
    const { Failed = [] } = await client.send(
      new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }),
    );
    return Failed;
  };

  const sendChunk = async (entries: SendMessageBatchRequestEntry[]): Promise<BatchResultErrorEntry[]> => {
    const failed = await sendBatch(entries);
    const retryable = new Set(failed.filter((entry) => !entry.SenderFault).map((entry) => entry.Id));
    const permanent = failed.filter((entry) => entry.SenderFault);
    if (retryable.size === 0) return permanent;
    return [...permanent, ...(await sendBatch(entries.filter((entry) => retryable.has(entry.Id))))];
  };

  return {
    async send(messages) {
      const chunks: SendMessageBatchRequestEntry[][] = [];
      for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
        // Ids only need to be unique within one batch call.
        chunks.push(
          messages.slice(start, start + SQS_BATCH_LIMIT).map((message, index) => ({
            Id: String(index),
            MessageBody: JSON.stringify(message),
          })),
        );
      }
      const results = await Promise.allSettled(chunks.map(sendChunk));
      const rejected = results.find((result) => result.status === 'rejected');
      if (rejected) throw rejected.reason;
      const failures = results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
      if (failures.length > 0) throw new QueueSendError(queueUrl, failures);
    },
  };
}
