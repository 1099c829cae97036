import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { utcDay } from '#shared/fuelings/domain/period.ts';
import { FUELING_POLICY } from '#shared/fuelings/domain/policy.ts';
import type { RecommendedStop } from '#shared/fuelings/domain/recommendations.ts';
import { ulidTimePrefix } from '#shared/kernel/ids.ts';
import {
  addToSavingsDay,
  type SavingsContribution,
  type TransactItem,
} from '#shared/reports/store/savings-days.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll } from '#shared/table/query-pages.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import { conditionalWrite, isConditionFailure, isTransactionConflict } from '#shared/table/transactions.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import { createVehicleRefReader, type VehicleRefReader } from '#shared/vehicles/store/vehicle-refs.ts';

/**
 * Every stop guidance recommended, kept beyond its session (`FLEET#…`/`RECSTOP#veh_…#gds_…`): the
 * stop id is a ULID timed by its session's start, so one key range finds a vehicle's
 * recommendations of a time window. The facts sit under `stop`; what changes is top-level
 * (`withdrawn_at`, `due`, `followed_by`, `passed_over_by`, and `counted_day`: the UTC day the savings report counts
 * the stop in, recommended and followed if it was, so each is counted once).
 */
export const recommendedStopKey = (fleetId: string, vehicleId: string, stopId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `RECSTOP#${vehicleId}#${stopId}`,
});

/** Matching looks back a week; the records outlive that only for support questions. */
export const RECOMMENDED_STOP_RETENTION_DAYS = 35;

export interface RecommendedStopRecord extends RecommendedStop {
  countedDay: string | null;
}

function fromItem(item: Record<string, unknown>): RecommendedStopRecord {
  return {
    ...(item.stop as RecommendedStop),
    withdrawnAtMs: (item.withdrawn_at as number | undefined) ?? null,
    due: (item.due as boolean | undefined) ?? false,
    followedFuelingId: (item.followed_by as string | undefined) ?? null,
    countedDay: (item.counted_day as string | undefined) ?? null,
  };
}

export interface RecommendedStopStore {
  /**
   * Keeps a newly recommended stop; a stop already on record keeps its first recommendation, dated
   * earlier when this one is (a start plan's stop re-dated by the day replayed: stop-dates.ts), and
   * the earliest time it became the stop the truck was heading to (`headingSinceMs`).
   */
  recommended(fleetId: string, stop: RecommendedStop): Promise<void>;
  /** The stop left the plan; counted (recommended, followed if so) on that day when due or followed. */
  withdrawn(
    fleetId: string,
    change: { vehicleId: string; stopId: string; withdrawnAtMs: number; due: boolean },
  ): Promise<void>;
  /**
   * The vehicle's recommendations that may have stood at `atMs`: those of sessions started within
   * the lookback before it, or at any time after it (a session started after a recorded day was
   * posted dates its stops by that day: stop-dates.ts).
   */
  around(fleetId: string, vehicleId: string, atMs: number): Promise<RecommendedStopRecord[]>;
  get(fleetId: string, vehicleId: string, stopId: string): Promise<RecommendedStopRecord | null>;
  /**
   * What counts the stop as advice a fill elsewhere passed over, for the fill's transaction (see
   * `passOverWrite`).
   */
  passOverWrite(
    fleetId: string,
    record: RecommendedStopRecord,
    fueling: Pick<Fueling, 'id' | 'fueledAt'>,
    externalRef: string | null,
  ): FollowWrite;
  /** What marks the stop followed by a fueling, for the fill's transaction (see `followWrite`). */
  followWrite(
    fleetId: string,
    record: RecommendedStopRecord,
    fuelingId: string,
    externalRef: string | null,
  ): FollowWrite;
}

/**
 * What marks a stop followed by a fueling: the update of its record, conditional on the state read
 * (a concurrent change makes the caller re-read), and what the savings report gains. Already
 * counted → one more followed stop on that day; withdrawn without being due → due after all
 * (followed advice was advice in range), counted now; still standing → counted when withdrawn.
 * The contributions are data, not transaction items: the fill's transaction adds them together
 * with its own to each day item once (addToSavingsDays).
 */
export interface FollowWrite {
  update: TransactItem;
  contributions: SavingsContribution[];
}

export function followWrite(
  tableName: string,
  fleetId: string,
  record: RecommendedStopRecord,
  fuelingId: string,
  externalRef: string | null,
): FollowWrite {
  /** The update that marks the record followed by this fill, on the condition its state requires. */
  const markFollowed = (
    update: string,
    condition: string,
    values: Record<string, unknown> = {},
  ): TransactItem => ({
    Update: {
      TableName: tableName,
      Key: recommendedStopKey(fleetId, record.vehicleId, record.stopId),
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeValues: { ':f': fuelingId, ...values },
    },
  });
  /** The fill counted on `day` toward the vehicle's savings day. */
  const countedOn = (day: string, delta: SavingsContribution['delta']): SavingsContribution[] => [
    { day, vehicleId: record.vehicleId, cause: `${record.stopId}:followed`, delta, externalRef },
  ];
  if (record.countedDay) {
    return {
      update: markFollowed(
        'SET followed_by = :f',
        'attribute_not_exists(followed_by) AND counted_day = :day',
        { ':day': record.countedDay },
      ),
      contributions: countedOn(record.countedDay, { followedStops: 1 }),
    };
  }
  if (record.withdrawnAtMs !== null) {
    const day = utcDay(record.withdrawnAtMs);
    return {
      update: markFollowed(
        'SET followed_by = :f, due = :true, counted_day = :day',
        'attribute_not_exists(followed_by) AND attribute_not_exists(counted_day) AND attribute_exists(withdrawn_at)',
        { ':day': day, ':true': true },
      ),
      contributions: countedOn(day, { recommendedStops: 1, followedStops: 1 }),
    };
  }
  return {
    update: markFollowed(
      'SET followed_by = :f',
      'attribute_exists(pk) AND attribute_not_exists(followed_by) AND attribute_not_exists(withdrawn_at)',
    ),
    contributions: [],
  };
}

/**
 * What counts a stop a fill elsewhere passed over (the stop the driver was heading to): recommended
 * once, on the fill's day, and not followed. Its record takes that day (`counted_day`), on
 * condition it was neither counted (withdrawn while due, or passed over by an earlier fill) nor
 * followed meanwhile, so its withdrawal counts nothing more; a later fill there still counts as
 * followed on that day (followWrite).
 */
export function passOverWrite(
  tableName: string,
  fleetId: string,
  record: RecommendedStopRecord,
  fueling: Pick<Fueling, 'id' | 'fueledAt'>,
  externalRef: string | null,
): FollowWrite {
  const day = utcDay(Date.parse(fueling.fueledAt));
  return {
    update: {
      Update: {
        TableName: tableName,
        Key: recommendedStopKey(fleetId, record.vehicleId, record.stopId),
        UpdateExpression: 'SET counted_day = :day, passed_over_by = :f',
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(counted_day) AND attribute_not_exists(followed_by)',
        ExpressionAttributeValues: { ':day': day, ':f': fueling.id },
      },
    },
    contributions: [
      {
        day,
        vehicleId: record.vehicleId,
        cause: `${record.stopId}:passed_over`,
        delta: { recommendedStops: 1 },
        externalRef,
      },
    ],
  };
}

const MAX_ATTEMPTS = 8;

export function createRecommendedStopStore(
  client: DocumentClient,
  tableName: string,
  /** Names the vehicle on its report contribution, so the report never reads vehicles for it. */
  externalRefOf: VehicleRefReader = createVehicleRefReader(client, tableName, Date.now),
): RecommendedStopStore {
  const get = async (fleetId: string, vehicleId: string, stopId: string) => {
    const { Item } = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: recommendedStopKey(fleetId, vehicleId, stopId),
        ConsistentRead: true,
      }),
    );
    return Item ? fromItem(Item) : null;
  };

  const redate = async (fleetId: string, stop: RecommendedStop) => {
    // A failed condition: dated as early already, nothing to change.
    await conditionalWrite(() =>
      client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: recommendedStopKey(fleetId, stop.vehicleId, stop.stopId),
          UpdateExpression: 'SET #stop.#at = :at',
          ConditionExpression: '#stop.#at > :at',
          ExpressionAttributeNames: { '#stop': 'stop', '#at': 'recommendedAtMs' },
          ExpressionAttributeValues: { ':at': stop.recommendedAtMs },
        }),
      ),
    );
  };

  /** The stop became the one the truck was heading to: the record keeps the earliest time it did. */
  const headingFrom = async (fleetId: string, stop: RecommendedStop, sinceMs: number) => {
    // A failed condition: heading as early already, nothing to change.
    await conditionalWrite(() =>
      client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: recommendedStopKey(fleetId, stop.vehicleId, stop.stopId),
          UpdateExpression: 'SET #stop.#since = :since',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(#stop.#since) OR #stop.#since > :since)',
          ExpressionAttributeNames: { '#stop': 'stop', '#since': 'headingSinceMs' },
          ExpressionAttributeValues: { ':since': sinceMs },
        }),
      ),
    );
  };

  return {
    get,
    followWrite: (fleetId, record, fuelingId, externalRef) =>
      followWrite(tableName, fleetId, record, fuelingId, externalRef),
    passOverWrite: (fleetId, record, fueling, externalRef) =>
      passOverWrite(tableName, fleetId, record, fueling, externalRef),
    async recommended(fleetId, stop) {
      const { withdrawnAtMs: _w, due: _d, followedFuelingId: _f, ...facts } = stop;
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...recommendedStopKey(fleetId, stop.vehicleId, stop.stopId),
              stop: facts,
              expires_at: ttlEpochSeconds(
                stop.recommendedAtMs + RECOMMENDED_STOP_RETENTION_DAYS * 86_400_000,
              ),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        await redate(fleetId, stop);
        if (stop.headingSinceMs !== undefined) await headingFrom(fleetId, stop, stop.headingSinceMs);
      }
    },

    async withdrawn(fleetId, change) {
      for (let attempt = 1; ; attempt++) {
        const record = await get(fleetId, change.vehicleId, change.stopId);
        // Never recorded (an outbox older than this record), or already withdrawn: nothing to do.
        if (!record || record.withdrawnAtMs !== null) return;
        const followed = record.followedFuelingId !== null;
        // Counted already (a fill elsewhere passed it over): its withdrawal adds nothing more.
        const countedBefore = record.countedDay;
        const counted = countedBefore === null && (change.due || followed);
        const day = utcDay(change.withdrawnAtMs);
        const values: Record<string, unknown> = {
          ':w': change.withdrawnAtMs,
          ':due': change.due || followed,
        };
        if (counted) values[':day'] = day;
        if (followed) values[':f'] = record.followedFuelingId;
        if (countedBefore !== null) values[':counted'] = countedBefore;
        const countedState =
          countedBefore === null ? 'attribute_not_exists(counted_day)' : 'counted_day = :counted';
        const items: TransactItem[] = [
          {
            Update: {
              TableName: tableName,
              Key: recommendedStopKey(fleetId, change.vehicleId, change.stopId),
              UpdateExpression: `SET withdrawn_at = :w, due = :due${counted ? ', counted_day = :day' : ''}`,
              // The follow and count state read is part of the condition: a fill matched or passing
              // it over meanwhile re-reads.
              ConditionExpression: `attribute_not_exists(withdrawn_at) AND ${
                followed ? 'followed_by = :f' : 'attribute_not_exists(followed_by)'
              } AND ${countedState}`,
              ExpressionAttributeValues: values,
            },
          },
        ];
        if (counted) {
          items.push(
            addToSavingsDay(tableName, fleetId, {
              day,
              vehicleId: change.vehicleId,
              cause: `${change.stopId}:withdrawn`,
              delta: { recommendedStops: 1, followedStops: followed ? 1 : 0 },
              externalRef: await externalRefOf(fleetId, change.vehicleId),
            }),
          );
        }
        try {
          await client.send(new TransactWriteCommand({ TransactItems: items }));
          return;
        } catch (error) {
          if (!(isConditionFailure(error) || isTransactionConflict(error)) || attempt >= MAX_ATTEMPTS)
            throw error;
          // Other vehicles' records share the day's report item: a jittered pause spreads retries.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
        }
      }
    },

    async around(fleetId, vehicleId, atMs) {
      const from = atMs - FUELING_POLICY.matchLookbackDays * 86_400_000;
      const prefix = `RECSTOP#${vehicleId}#gds_`;
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': `FLEET#${fleetId}`,
          ':from': `${prefix}${ulidTimePrefix(from)}`,
          ':to': `${prefix}~`,
        },
        ConsistentRead: true,
      });
      return items.map(fromItem);
    },
  };
}
