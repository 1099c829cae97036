import {
  DeleteCommand,
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Trip, TripStatus } from '../domain/trips/trip.ts';
import { type CursorCodec, MAX_LIST_READS, type Page } from './cursor.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { GSI1 } from './table.ts';
import { failedConditionIndexes, isConditionFailure, isTransactionConflict } from './transactions.ts';

type Item = Record<string, NativeAttributeValue>;

/**
 * Trips live in their fleet's partition (`FLEET#flt_…` / `TRIP#trip_…`), so another fleet's id is
 * simply not found. gsi1 lists a fleet's trips by planned start (`FLEET#flt_…#TRIPS` /
 * `<planned_start_at>#trip_…`), so `from`/`to` are a key range; `status` and `vehicle_id` filter
 * that range. One active trip per vehicle is held by a guard item (`ACTIVETRIP#veh_…`, naming the
 * trip) written in the same transaction as the start and deleted with the end: of two concurrent
 * starts, one loses on the guard's condition and writes nothing.
 */
export const tripKey = (fleetId: string, tripId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `TRIP#${tripId}`,
});
export const activeTripGuardKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `ACTIVETRIP#${vehicleId}`,
});
/**
 * A trip with follow-up work still to carry out (an outbox) is also listed here, so the
 * every-minute sweep finds work a failed or crashed request left behind. Written before the commit
 * that fills the outbox (an early entry is harmless: the sweep checks the trip) and removed when the
 * outbox is cleared. One partition: only transitions write it, and entries live seconds.
 */
const PENDING_OUTBOX_PK = 'TRIPOUTBOX';
export const pendingOutboxKey = (fleetId: string, tripId: string) => ({
  pk: PENDING_OUTBOX_PK,
  sk: `${fleetId}#${tripId}`,
});
const listIndexKey = (fleetId: string) => `FLEET#${fleetId}#TRIPS`;
/** ISO text sorts as time; the id keeps trips with the same start apart. */
const listSortKey = (trip: Pick<Trip, 'plannedStartAtMs' | 'id'>) =>
  `${new Date(trip.plannedStartAtMs).toISOString()}#${trip.id}`;

export function toTripItem(trip: Trip): Item {
  const { outbox, ...rest } = trip;
  return {
    ...tripKey(trip.fleetId, trip.id),
    gsi1pk: listIndexKey(trip.fleetId),
    gsi1sk: listSortKey(trip),
    // Top-level copies for conditions and list filters.
    status: trip.status,
    vehicle_id: trip.vehicleId,
    version: trip.version,
    // As JSON text: a stored map comes back in DynamoDB's own key order, and the plan's comparison
    // (the route planner's words) must read back exactly as it was answered.
    trip: JSON.stringify(rest),
    ...(outbox ? { outbox: JSON.stringify(outbox) } : {}),
  };
}

export function fromTripItem(item: Item): Trip {
  const trip = JSON.parse(String(item.trip)) as Omit<Trip, 'outbox'>;
  return { ...trip, outbox: item.outbox ? (JSON.parse(String(item.outbox)) as Trip['outbox']) : null };
}

export interface TripListFilter {
  status?: TripStatus | undefined;
  vehicleId?: string | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** The outcome of a conditional write: stored, or another writer got there first. */
export type TripWrite = 'stored' | 'lost_race';

export interface TripStore {
  create(trip: Trip): Promise<void>;
  get(fleetId: string, tripId: string): Promise<Trip | null>;
  /** Replaces the trip (outbox included) if it is still at `expectedVersion`. */
  save(trip: Trip, expectedVersion: number): Promise<TripWrite>;
  /**
   * Replaces the trip's state if it is still at `expectedVersion`, leaving its outbox as stored: for
   * a writer that is no party to the outbox (a GPS visit), which must neither drop pending work nor
   * bring back work already carried out.
   */
  saveState(trip: Trip, expectedVersion: number): Promise<TripWrite>;
  /** The start: the trip and the vehicle's active-trip guard together; the guard's trip when another holds it. */
  start(trip: Trip, expectedVersion: number): Promise<TripWrite | { activeTripId: string }>;
  /** The vehicle's active trip, as its guard names it (null: none). */
  activeTripOf(fleetId: string, vehicleId: string): Promise<string | null>;
  /** The end: the trip and the release of its guard together. */
  end(trip: Trip, expectedVersion: number): Promise<TripWrite>;
  /** Hard delete of a trip still at `expectedVersion` and planned. */
  delete(fleetId: string, tripId: string, expectedVersion: number): Promise<TripWrite>;
  /** Drops the carried-out outbox unless the trip moved on (then the next writer sees a newer one). */
  clearOutbox(trip: Trip): Promise<void>;
  /** Trips whose outbox has been waiting since before `beforeMs` (at most `limit`). */
  pendingOutboxes(beforeMs: number, limit: number): Promise<{ fleetId: string; tripId: string }[]>;
  /** Forgets a pending entry whose trip has no outbox (any more, or never had: a lost race). */
  forgetPendingOutbox(trip: Pick<Trip, 'fleetId' | 'id' | 'version'>): Promise<void>;
  list(
    fleetId: string,
    filter: TripListFilter,
    limit: number,
    cursor: string | undefined,
  ): Promise<Page<Trip>>;
}

/** The reads: a trip, and a fleet's trips. */
export type TripReader = Pick<TripStore, 'get' | 'list'>;

/**
 * The store's read side alone: GET /v1/trips and GET /v1/trips/{id} bundle none of the versioned
 * writes, the active-trip guard or the outbox (docs/cold-starts.md).
 */
export function createTripReader(
  client: DocumentClient,
  tableName: string,
  cursors: CursorCodec,
): TripReader {
  return {
    async get(fleetId, tripId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: tripKey(fleetId, tripId) }),
      );
      return Item ? fromTripItem(Item) : null;
    },

    async list(fleetId, filter, limit, cursor) {
      const scope = `trips:${fleetId}:${filter.status ?? ''}:${filter.vehicleId ?? ''}:${filter.fromMs ?? ''}:${filter.toMs ?? ''}`;
      const names: Record<string, string> = {};
      const values: Record<string, NativeAttributeValue> = { ':pk': listIndexKey(fleetId) };
      // The range bounds: `from` inclusive, `to` inclusive (every id sorts after the '#').
      values[':from'] = filter.fromMs === undefined ? '0' : new Date(filter.fromMs).toISOString();
      values[':to'] = filter.toMs === undefined ? '~' : `${new Date(filter.toMs).toISOString()}#~`;
      const filters: string[] = [];
      if (filter.status) {
        names['#status'] = 'status';
        values[':status'] = filter.status;
        filters.push('#status = :status');
      }
      if (filter.vehicleId) {
        values[':vehicle'] = filter.vehicleId;
        filters.push('vehicle_id = :vehicle');
      }
      const trips: Trip[] = [];
      let startKey = cursor ? cursors.decode(scope, cursor) : undefined;
      for (let reads = 0; reads < MAX_LIST_READS && trips.length < limit; reads++) {
        const { Items = [], LastEvaluatedKey } = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: GSI1,
            KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
            ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
            ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
            ExpressionAttributeValues: values,
            // Evaluated before the filter, so a page never holds more than asked.
            Limit: limit - trips.length,
            ExclusiveStartKey: startKey,
          }),
        );
        trips.push(...Items.map(fromTripItem));
        startKey = LastEvaluatedKey;
        if (!startKey) break;
      }
      return { data: trips, next_cursor: startKey ? cursors.encode(scope, startKey) : null };
    },
  };
}

export function createTripStore(client: DocumentClient, tableName: string, cursors: CursorCodec): TripStore {
  const versionCondition = { ConditionExpression: 'version = :expected' };
  const lostRaceOr = (error: unknown): TripWrite => {
    if (isConditionFailure(error) || isTransactionConflict(error)) return 'lost_race';
    throw error;
  };
  /** The trip's own write (alone, or in a transaction): the whole item, if still at `expectedVersion`. */
  const versionedPut = (trip: Trip, expectedVersion: number) => ({
    Put: {
      TableName: tableName,
      Item: toTripItem(trip),
      ...versionCondition,
      ExpressionAttributeValues: { ':expected': expectedVersion },
    },
  });
  /** Before a commit that leaves an outbox: lists the trip for the sweep. */
  const markPending = async (trip: Trip) => {
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
  };
  const forgetPending = async (trip: Pick<Trip, 'fleetId' | 'id' | 'version'>) => {
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: pendingOutboxKey(trip.fleetId, trip.id),
          // A newer outbox listed it again meanwhile: that entry stays.
          ConditionExpression: 'version <= :version',
          ExpressionAttributeValues: { ':version': trip.version },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  };

  return {
    ...createTripReader(client, tableName, cursors),

    async create(trip) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: toTripItem(trip),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async save(trip, expectedVersion) {
      await markPending(trip);
      try {
        await client.send(new PutCommand(versionedPut(trip, expectedVersion).Put));
        return 'stored';
      } catch (error) {
        return lostRaceOr(error);
      }
    },

    async saveState(trip, expectedVersion) {
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

    async start(trip, expectedVersion) {
      const guard = activeTripGuardKey(trip.fleetId, trip.vehicleId);
      await markPending(trip);
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              versionedPut(trip, expectedVersion),
              {
                Put: {
                  TableName: tableName,
                  Item: { ...guard, trip_id: trip.id },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        );
        return 'stored';
      } catch (error) {
        const failed = failedConditionIndexes(error);
        // The trip itself moved (another start of it won): a lost race, redone from its new state.
        if (failed.includes(1) && !failed.includes(0)) {
          const { Item } = await client.send(
            new GetCommand({ TableName: tableName, Key: guard, ConsistentRead: true }),
          );
          // The holder may have ended in between: then this was a lost race, and a retry may win.
          if (Item && Item.trip_id !== trip.id) return { activeTripId: String(Item.trip_id) };
        }
        return lostRaceOr(error);
      }
    },

    async activeTripOf(fleetId, vehicleId) {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: activeTripGuardKey(fleetId, vehicleId),
          ConsistentRead: true,
        }),
      );
      return Item ? String(Item.trip_id) : null;
    },

    async end(trip, expectedVersion) {
      await markPending(trip);
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              versionedPut(trip, expectedVersion),
              {
                Delete: {
                  TableName: tableName,
                  Key: activeTripGuardKey(trip.fleetId, trip.vehicleId),
                  ConditionExpression: 'trip_id = :trip',
                  ExpressionAttributeValues: { ':trip': trip.id },
                },
              },
            ],
          }),
        );
        return 'stored';
      } catch (error) {
        return lostRaceOr(error);
      }
    },

    async delete(fleetId, tripId, expectedVersion) {
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

    async clearOutbox(trip) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: tripKey(trip.fleetId, trip.id),
            UpdateExpression: 'REMOVE outbox',
            ...versionCondition,
            ExpressionAttributeValues: { ':expected': trip.version },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return;
      }
      await forgetPending(trip);
    },

    async pendingOutboxes(beforeMs, limit) {
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

    forgetPendingOutbox: forgetPending,
  };
}
