import type { SQSRecord } from 'aws-lambda';
import {
  parseVehicleUpdateMessage,
  type VehicleUpdateMessage,
} from '../../shared/domain/telematics/messages.ts';
import { logger } from '../../shared/platform/observability.ts';
import { sqsBatchHandler } from '../../shared/platform/sqs-batch.ts';
import { processVehicleUpdate } from '../../shared/usecases/vehicle-updates.ts';
import { guidancePlanningDeps } from '../../shared/wiring/guidance-planning.ts';

/** One guidance cycle for one vehicle; what it reports is only logged. */
export type GuidanceCycle = (
  message: VehicleUpdateMessage,
) => Promise<{ events: readonly { type: string }[] }>;

/**
 * Cycles of one vehicle run one after another in this container: a batch often holds several
 * messages for the same truck (one per ingest call), and running them side by side would only make
 * them race for the tracking item's version and redo their work.
 */
function oneAtATimePerKey() {
  const running = new Map<string, Promise<unknown>>();
  return async <T>(key: string, cycle: () => Promise<T>): Promise<T> => {
    const current = (running.get(key) ?? Promise.resolve()).catch(() => undefined).then(cycle);
    running.set(key, current);
    try {
      return await current;
    } finally {
      if (running.get(key) === current) running.delete(key);
    }
  };
}

/**
 * The SQS handler over a cycle: one cycle per message. A malformed message is logged and dropped
 * (redelivering it cannot fix it); our own faults fail the record alone, so SQS redelivers just
 * that one, and the cycle's idempotency makes the second run harmless.
 */
export function createGuidanceWorker(cycle: GuidanceCycle) {
  const oneAtATime = oneAtATimePerKey();
  const processRecord = async (record: SQSRecord): Promise<void> => {
    const parsed = parseVehicleUpdateMessage(record.body);
    // A message delivered again has waited at least a visibility timeout: its snapshots of the
    // vehicle and position item may be stale (a sandbox reset, a vehicle edited), so it reads them.
    const message =
      parsed && Number(record.attributes.ApproximateReceiveCount) > 1 ? withoutSnapshots(parsed) : parsed;
    if (!message) {
      logger.error('Dropped a malformed vehicle-updates message', { messageId: record.messageId });
      return;
    }
    const { events } = await oneAtATime(`${message.fleetId}|${message.vehicleId}`, () => cycle(message));
    // A line per cycle that announced something; quiet cycles (most of them) only at DEBUG: at a
    // breadcrumb a minute, an INFO line per cycle was most of a truck's log bill (docs/cost.md).
    const line = {
      fleetId: message.fleetId,
      vehicleId: message.vehicleId,
      events: events.map((e) => e.type),
    };
    if (events.length > 0) logger.info('Guidance cycle', line);
    else logger.debug('Guidance cycle', line);
  };
  return sqsBatchHandler(processRecord, {
    failure: 'Guidance cycle failed; SQS delivers the message again',
    idsOf: (record) => {
      const { fleetId, vehicleId } = JSON.parse(record.body) as { fleetId?: unknown; vehicleId?: unknown };
      return { fleetId, vehicleId };
    },
  });
}

const withoutSnapshots = ({ positions: _positions, vehicle: _vehicle, ...rest }: VehicleUpdateMessage) =>
  rest;

export const handler = createGuidanceWorker((message) =>
  processVehicleUpdate(guidancePlanningDeps(), message),
);
