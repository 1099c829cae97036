import { guidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { sqsKeyedBatchHandler } from '#shared/platform/sqs-keyed-batch.ts';
import { type GuidanceCycle, vehicleUpdateWork } from '#shared/tracking/usecases/vehicle-update-work.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';

/**
 * The SQS handler over a cycle (shared/tracking/usecases/vehicle-update-work.ts). A malformed message is
 * logged and dropped; our own faults fail the record alone, so SQS redelivers just that one.
 */
export function createGuidanceWorker(cycle: GuidanceCycle) {
  return sqsKeyedBatchHandler({
    ...vehicleUpdateWork(cycle),
    dropped: 'Dropped a malformed vehicle-updates message',
    failure: 'Guidance cycle failed; SQS delivers the message again',
    idsOf: (record) => {
      const { fleetId, vehicleId } = JSON.parse(record.body) as { fleetId?: unknown; vehicleId?: unknown };
      return { fleetId, vehicleId };
    },
  });
}

export const handler = createGuidanceWorker((message) =>
  processVehicleUpdate(guidancePlanningDeps(), message),
);
