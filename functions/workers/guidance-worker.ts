import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { VehicleUpdateMessage } from '../../shared/domain/telematics/messages.ts';
import { logger } from '../../shared/platform/observability.ts';
import { vehicleUpdateDeps } from '../../shared/store/guidance-repositories.ts';
import { processVehicleUpdate } from '../../shared/usecases/vehicle-updates.ts';

const processor = new BatchProcessor(EventType.SQS);

/**
 * One guidance cycle per message. A malformed message is logged and dropped (redelivering it cannot
 * fix it); our own faults fail the record alone, so SQS redelivers just that one, and the cycle's
 * idempotency makes the second run harmless.
 */
async function processRecord(record: SQSRecord): Promise<void> {
  const message = parseMessage(record.body);
  if (!message) {
    logger.error('Dropped a malformed vehicle-updates message', { messageId: record.messageId });
    return;
  }
  const { events } = await processVehicleUpdate(vehicleUpdateDeps(), message);
  logger.info('Guidance cycle', { ...message, events: events.map((e) => e.type) });
}

function parseMessage(body: string): VehicleUpdateMessage | null {
  try {
    const parsed = JSON.parse(body) as Partial<VehicleUpdateMessage>;
    return typeof parsed.fleetId === 'string' && typeof parsed.vehicleId === 'string'
      ? { fleetId: parsed.fleetId, vehicleId: parsed.vehicleId }
      : null;
  } catch {
    return null;
  }
}

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, processRecord, processor, { context });
