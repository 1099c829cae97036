import { logger } from '#shared/platform/observability.ts';
import type { KeyedWork } from '#shared/platform/sqs-keyed-batch.ts';
import { parseVehicleUpdateMessage, type VehicleUpdateMessage } from '../domain/messages.ts';

/** One guidance cycle for one vehicle; what it reports is only logged. */
export type GuidanceCycle = (
  message: VehicleUpdateMessage,
) => Promise<{ events: readonly { type: string }[] }>;

/**
 * What the guidance worker does with a vehicle-updates message: one cycle per message, the cycles
 * of one vehicle one after another (a batch often holds several messages for the same truck, one
 * per ingest call, and running them side by side would only make them race for the tracking
 * item's version and redo their work). A failed cycle is delivered again, and the cycle's
 * idempotency makes the second run harmless.
 */
export function vehicleUpdateWork(cycle: GuidanceCycle): KeyedWork<VehicleUpdateMessage> {
  return {
    parse: deliveredVehicleUpdate,
    keyOf: ({ fleetId, vehicleId }) => `${fleetId}|${vehicleId}`,
    process: async (message) => {
      const { events } = await cycle(message);
      // A line per cycle that announced something; quiet cycles (most of them) only at DEBUG: at a
      // breadcrumb a minute, an INFO line per cycle was most of a truck's log bill (docs/cost.md).
      const line = {
        fleetId: message.fleetId,
        vehicleId: message.vehicleId,
        events: events.map((e) => e.type),
      };
      if (events.length > 0) logger.info('Guidance cycle', line);
      else logger.debug('Guidance cycle', line);
    },
  };
}

/**
 * A queue body as the message a cycle runs. A message delivered again has waited at least a
 * visibility timeout: its snapshots of the vehicle and position item may be stale (a sandbox
 * reset, a vehicle edited), so they are left out and the cycle reads the items.
 */
export function deliveredVehicleUpdate(body: string, receiveCount: number): VehicleUpdateMessage | null {
  const message = parseVehicleUpdateMessage(body);
  return message && receiveCount > 1 ? withoutSnapshots(message) : message;
}

const withoutSnapshots = ({ positions: _positions, vehicle: _vehicle, ...rest }: VehicleUpdateMessage) =>
  rest;
