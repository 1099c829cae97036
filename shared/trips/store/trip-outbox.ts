import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { conditionalWrite } from '#shared/table/transactions.ts';
import type { Trip } from '../domain/trip.ts';
import { PENDING_OUTBOX_PK, pendingOutboxKey, tripKey } from './trip-items.ts';

/** A conditional write whose failed condition means another writer moved on: nothing left to do (false). */
function unlessMovedOn(write: Promise<unknown>): Promise<boolean> {
  return conditionalWrite(() => write);
}

/**
 * The trips' pending-outbox list (trip-items.ts): an entry is put before a commit that leaves an
 * outbox, and forgotten once the outbox is carried out.
 */
export function createPendingOutboxList(client: DocumentClient, tableName: string) {
  return {
    /** Before a commit that leaves an outbox: lists the trip for the sweep. */
    async mark(trip: Trip): Promise<void> {
      if (!trip.outbox) return;
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...pendingOutboxKey(trip.fleetId, trip.id),
            fleet_id: trip.fleetId,
            trip_id: trip.id,
            version: trip.version,
            since_ms: trip.updatedAtMs,
          },
        }),
      );
    },

    async forget(trip: Pick<Trip, 'fleetId' | 'id' | 'version'>): Promise<void> {
      await unlessMovedOn(
        client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: pendingOutboxKey(trip.fleetId, trip.id),
            // A newer outbox listed it again meanwhile: that entry stays.
            ConditionExpression: 'version <= :version',
            ExpressionAttributeValues: { ':version': trip.version },
          }),
        ),
      );
    },
  };
}

/** The outbox's side: clearing a carried-out outbox, and the sweep's list of trips still waiting. */
export function createTripOutbox(client: DocumentClient, tableName: string) {
  const pending = createPendingOutboxList(client, tableName);
  return {
    async clearOutbox(trip: Trip): Promise<void> {
      const cleared = await unlessMovedOn(
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: tripKey(trip.fleetId, trip.id),
            UpdateExpression: 'REMOVE outbox',
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':expected': trip.version },
          }),
        ),
      );
      if (cleared) await pending.forget(trip);
    },

    async pendingOutboxes(beforeMs: number, limit: number): Promise<{ fleetId: string; tripId: string }[]> {
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: 'since_ms < :before',
          ExpressionAttributeValues: { ':pk': PENDING_OUTBOX_PK, ':before': beforeMs },
        }),
      );
      return Items.slice(0, limit).map((item) => ({
        fleetId: String(item.fleet_id),
        tripId: String(item.trip_id),
      }));
    },

    forgetPendingOutbox: pending.forget,
  };
}
