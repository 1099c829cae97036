import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { DeliveryMessage } from '../../shared/domain/webhooks/delivery.ts';
import { logger } from '../../shared/platform/observability.ts';
import { attemptDelivery } from '../../shared/usecases/webhook-delivery.ts';
import { deliveryDeps } from '../../shared/wiring/webhooks.ts';

const processor = new BatchProcessor(EventType.SQS);

/**
 * One attempt per message. A receiver's failure is not an error here (the attempt is recorded and
 * the retry scheduled); only our own faults (the table unreachable…) fail the record, alone, so
 * SQS redelivers just that one.
 */
async function processRecord(record: SQSRecord): Promise<void> {
  const message = JSON.parse(record.body) as DeliveryMessage;
  const delivery = await attemptDelivery(deliveryDeps(), message);
  logger.info('Webhook attempt', {
    deliveryId: message.deliveryId,
    endpointId: message.endpointId,
    status: delivery?.status ?? 'missing',
    attempts: delivery?.attempts,
    statusCode: delivery?.lastStatusCode,
  });
}

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, processRecord, processor, { context });
