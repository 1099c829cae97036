import type { SQSRecord } from 'aws-lambda';
import { logger } from '#shared/platform/observability.ts';
import { sqsBatchHandler } from '#shared/platform/sqs-batch.ts';
import type { DeliveryMessage } from '#shared/webhooks/domain/delivery.ts';
import { attemptDelivery } from '#shared/webhooks/usecases/webhook-delivery.ts';
import { deliveryDeps } from '#shared/webhooks/wiring/webhooks.ts';

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

export const handler = sqsBatchHandler(processRecord, {
  failure: 'Webhook attempt failed; SQS delivers the message again',
  idsOf: (record) => {
    const { deliveryId, endpointId, attempt, owner } = JSON.parse(record.body) as Partial<DeliveryMessage>;
    const ownerId = owner?.kind === 'fleet' ? { fleetId: owner.fleetId } : { partnerId: owner?.partnerId };
    return { deliveryId, endpointId, attempt, ...ownerId };
  },
});
