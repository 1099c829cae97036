import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import type { TransactAction } from '#shared/table/transactions.ts';
import type { Trip } from '../domain/trip.ts';
import { lostRaceOr, type TripWrite, toTripItem, tripKey } from './trip-items.ts';
import { createPendingOutboxList } from './trip-outbox.ts';

/**
 * The trip's versioned write: the whole item if still at `expectedVersion`, alone or in one
 * transaction with `companion` (another item that must change with it). A trip it leaves with an
 * outbox is listed for the sweep first. Throws what the write throws.
 */
export function createVersionedTripWrite(client: DocumentClient, tableName: string) {
  const pending = createPendingOutboxList(client, tableName);
  return async (trip: Trip, expectedVersion: number, companion?: TransactAction): Promise<void> => {
    const put = {
      TableName: tableName,
      Item: toTripItem(trip),
      ConditionExpression: 'version = :expected',
      ExpressionAttributeValues: { ':expected': expectedVersion },
    };
    await pending.mark(trip);
    if (companion) {
      await client.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, companion] }));
    } else {
      await client.send(new PutCommand(put));
    }
  };
}

/** The trip's own writes: create, replace (whole or its state alone), delete while planned. */
export function createTripWrites(client: DocumentClient, tableName: string) {
  const writeVersioned = createVersionedTripWrite(client, tableName);
  return {
    async create(trip: Trip): Promise<void> {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: toTripItem(trip),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async save(trip: Trip, expectedVersion: number): Promise<TripWrite> {
      try {
        await writeVersioned(trip, expectedVersion);
        return 'stored';
      } catch (error) {
        return lostRaceOr(error);
      }
    },

    async saveState(trip: Trip, expectedVersion: number): Promise<TripWrite> {
      const { pk: _pk, sk: _sk, outbox: _outbox, ...state } = toTripItem(trip);
      const names = Object.keys(state);
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: tripKey(trip.fleetId, trip.id),
            UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :a${i}`).join(', ')}`,
            ConditionExpression: '#a_version = :expected',
            ExpressionAttributeNames: {
              ...Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
              '#a_version': 'version',
            },
            ExpressionAttributeValues: {
              ...Object.fromEntries(names.map((name, i) => [`:a${i}`, state[name]])),
              ':expected': expectedVersion,
            },
          }),
        );
        return 'stored';
      } catch (error) {
        return lostRaceOr(error);
      }
    },

    async delete(fleetId: string, tripId: string, expectedVersion: number): Promise<TripWrite> {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: tripKey(fleetId, tripId),
            ConditionExpression: 'version = :expected AND #status = :planned',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':expected': expectedVersion, ':planned': 'planned' },
          }),
        );
        return 'stored';
      } catch (error) {
        return lostRaceOr(error);
      }
    },
  };
}
