import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { failedConditionIndexes } from '#shared/table/transactions.ts';
import type { Trip } from '../domain/trip.ts';
import { activeTripGuardKey, lostRaceOr, type TripWrite } from './trip-items.ts';
import { createVersionedTripWrite } from './trip-writes.ts';

/**
 * The vehicle's active-trip guard (trip-items.ts): taken with the start, released with the end,
 * each in one transaction with the trip's versioned write.
 */
export function createTripActiveGuard(client: DocumentClient, tableName: string) {
  const writeVersioned = createVersionedTripWrite(client, tableName);
  /** The trip the vehicle's guard names (consistent read; null: none). */
  const activeTripOf = async (fleetId: string, vehicleId: string): Promise<string | null> => {
    const { Item } = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: activeTripGuardKey(fleetId, vehicleId),
        ConsistentRead: true,
      }),
    );
    return Item ? String(Item.trip_id) : null;
  };
  return {
    async start(trip: Trip, expectedVersion: number): Promise<TripWrite | { activeTripId: string }> {
      try {
        await writeVersioned(trip, expectedVersion, {
          Put: {
            TableName: tableName,
            Item: { ...activeTripGuardKey(trip.fleetId, trip.vehicleId), trip_id: trip.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
        return 'stored';
      } catch (error) {
        const failed = failedConditionIndexes(error);
        // The trip itself moved (another start of it won): a lost race, redone from its new state.
        if (failed.includes(1) && !failed.includes(0)) {
          const holder = await activeTripOf(trip.fleetId, trip.vehicleId);
          // The holder may have ended in between: then this was a lost race, and a retry may win.
          if (holder && holder !== trip.id) return { activeTripId: holder };
        }
        return lostRaceOr(error);
      }
    },

    activeTripOf,

    async end(trip: Trip, expectedVersion: number): Promise<TripWrite> {
      try {
        await writeVersioned(trip, expectedVersion, {
          Delete: {
            TableName: tableName,
            Key: activeTripGuardKey(trip.fleetId, trip.vehicleId),
            ConditionExpression: 'trip_id = :trip',
            ExpressionAttributeValues: { ':trip': trip.id },
          },
        });
        return 'stored';
      } catch (error) {
        return lostRaceOr(error);
      }
    },
  };
}
