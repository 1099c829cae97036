import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { conditionalWrite, isConditionFailure } from '#shared/table/transactions.ts';
import { emptyTracking, type VehicleTracking } from '../domain/vehicle-tracking.ts';
import {
  fromTrackingItem,
  heartbeatKey,
  markerIndexKeys,
  toTrackingItem,
  trackingKey,
  versionAsRead,
} from './vehicle-tracking-items.ts';
import { packState } from './vehicle-tracking-packing.ts';

/**
 * The commit of a tracking change: the conditional Put of `tracking` (at the version it was read
 * at), alone (`save`) or for a caller's transaction (`prepare`).
 */
export function createTrackingCommit(client: DocumentClient, tableName: string) {
  /**
   * The Put committing `tracking`, and what it stores. An offline vehicle with follow-up work gets
   * a visit marker first (an early one is harmless; a missing one would leave the work undone until
   * the vehicle reports again).
   */
  const prepare = async (tracking: VehicleTracking) => {
    if (tracking.offline && tracking.outbox) {
      const lastSeenMs = tracking.lastSeenMs ?? 0;
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...heartbeatKey(tracking.fleetId, tracking.vehicleId),
            ...markerIndexKeys(tracking.fleetId, tracking.vehicleId, lastSeenMs),
            last_seen_ms: lastSeenMs,
          },
        }),
      );
    }
    const stored: VehicleTracking = { ...tracking, version: tracking.version + 1 };
    const put = { TableName: tableName, Item: toTrackingItem(stored), ...versionAsRead(tracking) };
    return { stored, put };
  };

  /** Commits `tracking`; null when somebody moved the version since it was read. */
  const save = async (tracking: VehicleTracking): Promise<VehicleTracking | null> => {
    const { stored, put } = await prepare(tracking);
    try {
      await client.send(new PutCommand(put));
      return stored;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  };
  return { prepare, save };
}

/** The guidance worker's cycle: read the vehicle's tracking, commit the change, clear the carried-out outbox. */
export function createVehicleTrackingCycle(client: DocumentClient, tableName: string) {
  return {
    async get(
      fleetId: string,
      vehicleId: string,
      options?: { consistent?: boolean },
    ): Promise<VehicleTracking> {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: trackingKey(fleetId, vehicleId),
          ConsistentRead: options?.consistent ?? true,
        }),
      );
      return Item ? fromTrackingItem(fleetId, vehicleId, Item) : emptyTracking(fleetId, vehicleId);
    },

    save: createTrackingCommit(client, tableName).save,

    async clearOutbox(tracking: VehicleTracking): Promise<void> {
      await conditionalWrite(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: trackingKey(tracking.fleetId, tracking.vehicleId),
            // The outbox is inside the blob: the state without it (and any pre-blob attributes gone).
            UpdateExpression:
              'SET #state = :state, session_status = :status REMOVE tracker, #session, outbox',
            ConditionExpression: 'version = :version',
            ExpressionAttributeNames: { '#state': 'state', '#session': 'session' },
            ExpressionAttributeValues: {
              ':state': packState({ ...tracking, outbox: null }),
              ':status': tracking.session?.status ?? null,
              ':version': tracking.version,
            },
          }),
        ),
      );
    },
  };
}
