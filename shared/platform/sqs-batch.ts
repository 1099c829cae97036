import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from './observability.ts';

export interface SqsBatchOptions {
  /** The log message of a failed record, e.g. "Guidance cycle failed". */
  failure: string;
  /** The ids a record's body names (fleet, vehicle, delivery…), for the failure's log line; never throws. */
  idsOf: (record: SQSRecord) => Record<string, unknown>;
}

/**
 * An SQS batch handler that processes records one by one and reports only the failed ones, so SQS
 * redelivers just those. Each failure is logged with its error (cause included), the message id,
 * the delivery count and the ids the record names: Powertools' batch error itself only says
 * "All records failed processing. See individual errors below." and logs none of them.
 *
 * @example
 * export const handler = sqsBatchHandler(processRecord, {
 *   failure: 'Webhook attempt failed',
 *   idsOf: (record) => ({ deliveryId: JSON.parse(record.body).deliveryId }),
 * });
 */
export function sqsBatchHandler(
  processRecord: (record: SQSRecord) => Promise<void>,
  options: SqsBatchOptions,
): (event: SQSEvent, context: Context) => ReturnType<typeof processPartialResponse> {
  const processor = new BatchProcessor(EventType.SQS);
  const reported = async (record: SQSRecord): Promise<void> => {
    try {
      await processRecord(record);
    } catch (error) {
      logger.error(options.failure, {
        messageId: record.messageId,
        receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1),
        ...idsOrNothing(options.idsOf, record),
        error,
      });
      throw error;
    }
  };
  return (event, context) => processPartialResponse(event, reported, processor, { context });
}

/** A body too broken to name its ids still gets its failure logged, with the message id alone. */
function idsOrNothing(idsOf: SqsBatchOptions['idsOf'], record: SQSRecord): Record<string, unknown> {
  try {
    return idsOf(record);
  } catch {
    return {};
  }
}
