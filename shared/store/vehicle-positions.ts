import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { HistoryPoint, LatestPosition, PositionFix } from '../domain/telematics/positions.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';
import { isConditionFailure } from './transactions.ts';

/**
 * A vehicle's latest position (`FLEET#…`/`VEHPOS#veh_…`), written with a condition so it only
 * moves forward in time: a late, older breadcrumb never overwrites a newer one. History goes to
 * one item per vehicle and UTC hour (`VEHHIST#veh_…#2026-11-21T22`), appended to, so a truck
 * reporting every minute costs 24 items a day instead of 1,440.
 */
export const latestPositionKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHPOS#${vehicleId}`,
});
export const historyBucketKey = (fleetId: string, vehicleId: string, recordedAtMs: number) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHHIST#${vehicleId}#${new Date(recordedAtMs).toISOString().slice(0, 13)}`,
});

/** Breadcrumb history is kept this long (DynamoDB TTL on each hourly bucket). */
export const POSITION_HISTORY_RETENTION_DAYS = 90;

export interface VehiclePositionStore {
  latest(fleetId: string, vehicleId: string): Promise<LatestPosition | null>;
  /** True when this fix became the latest; false when a newer one was already stored. */
  recordLatest(fleetId: string, vehicleId: string, fix: PositionFix): Promise<boolean>;
  appendHistory(fleetId: string, vehicleId: string, fixes: readonly PositionFix[]): Promise<void>;
  /**
   * Breadcrumbs recorded after `afterMs` (all of the last {@link HISTORY_LOOKBACK_HOURS} hours
   * when null) up to `untilMs`, oldest first: what the guidance worker has not consumed yet.
   */
  historySince(
    fleetId: string,
    vehicleId: string,
    afterMs: number | null,
    untilMs: number,
  ): Promise<HistoryPoint[]>;
}

/** The worker reads at most this much history in one cycle (a vehicle back after a long silence). */
export const HISTORY_LOOKBACK_HOURS = 6;

const orNull = (value: unknown) => (value === undefined || value === null ? null : Number(value));

export function createVehiclePositionStore(client: DocumentClient, tableName: string): VehiclePositionStore {
  return {
    async latest(fleetId, vehicleId) {
      const { Item } = await client.send(
        // Strongly consistent: the worker bounds its history read by it, right after ingest wrote it.
        new GetCommand({
          TableName: tableName,
          Key: latestPositionKey(fleetId, vehicleId),
          ConsistentRead: true,
        }),
      );
      if (!Item) return null;
      const recordedAtMs = Number(Item.recorded_at_ms ?? Date.parse(String(Item.recorded_at)));
      return {
        latitude: Number(Item.latitude),
        longitude: Number(Item.longitude),
        recordedAt: String(Item.recorded_at),
        recordedAtMs,
        receivedAtMs: Number(Item.received_at_ms ?? recordedAtMs),
        fuelLevelPercent: orNull(Item.fuel_level_percent),
        speedKmh: orNull(Item.speed_kmh),
        headingDegrees: orNull(Item.heading_degrees),
        driverRef: (Item.driver_ref as string | undefined) ?? null,
        address: (Item.address as string | undefined) ?? null,
      };
    },

    async recordLatest(fleetId, vehicleId, fix) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: latestPositionKey(fleetId, vehicleId),
            UpdateExpression:
              'SET latitude = :lat, longitude = :lon, recorded_at = :at, recorded_at_ms = :ms, received_at_ms = :rx, ' +
              'fuel_level_percent = :fuel, speed_kmh = :speed, heading_degrees = :heading, driver_ref = :driver, address = :address',
            ConditionExpression: 'attribute_not_exists(recorded_at_ms) OR recorded_at_ms < :ms',
            ExpressionAttributeValues: {
              ':lat': fix.latitude,
              ':lon': fix.longitude,
              ':at': formatTimestamp(fix.recordedAtMs),
              ':ms': fix.recordedAtMs,
              ':rx': fix.receivedAtMs,
              ':fuel': fix.fuelLevelPercent,
              ':speed': fix.speedKmh,
              ':heading': fix.headingDegrees,
              ':driver': fix.driverRef,
              ':address': fix.address,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async appendHistory(fleetId, vehicleId, fixes) {
      const buckets = new Map<string, { key: ReturnType<typeof historyBucketKey>; fixes: PositionFix[] }>();
      for (const fix of fixes) {
        const key = historyBucketKey(fleetId, vehicleId, fix.recordedAtMs);
        const bucket = buckets.get(key.sk) ?? { key, fixes: [] };
        bucket.fixes.push(fix);
        buckets.set(key.sk, bucket);
      }
      await Promise.all(
        [...buckets.values()].map(({ key, fixes: bucketFixes }) =>
          client.send(
            new UpdateCommand({
              TableName: tableName,
              Key: key,
              // Compact tuples keep an hour of one-minute breadcrumbs far below DynamoDB's 400 KB item limit.
              UpdateExpression:
                'SET points = list_append(if_not_exists(points, :empty), :points), expires_at = :ttl',
              ExpressionAttributeValues: {
                ':empty': [],
                ':points': bucketFixes.map((f) => [
                  f.recordedAtMs,
                  f.latitude,
                  f.longitude,
                  f.fuelLevelPercent,
                  f.speedKmh,
                ]),
                ':ttl': ttlEpochSeconds(
                  Math.max(...bucketFixes.map((f) => f.recordedAtMs)) +
                    POSITION_HISTORY_RETENTION_DAYS * 86_400_000,
                ),
              },
            }),
          ),
        ),
      );
    },

    async historySince(fleetId, vehicleId, afterMs, untilMs) {
      const lookbackStartMs = untilMs - HISTORY_LOOKBACK_HOURS * 3_600_000;
      const fromMs = Math.max(afterMs ?? lookbackStartMs, lookbackStartMs);
      // Keyed by time: a batch a client sent twice appends the same breadcrumbs twice.
      const points = new Map<number, HistoryPoint>();
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :until',
            ExpressionAttributeValues: {
              ':pk': `FLEET#${fleetId}`,
              ':from': historyBucketKey(fleetId, vehicleId, fromMs).sk,
              ':until': historyBucketKey(fleetId, vehicleId, untilMs).sk,
            },
            ProjectionExpression: 'points',
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          for (const [recordedAtMs, latitude, longitude, fuel, speed] of (item.points ?? []) as number[][]) {
            const at = Number(recordedAtMs);
            // The first copy of a resent breadcrumb wins, as in detection.
            if (at < fromMs || at > untilMs || (afterMs !== null && at <= afterMs) || points.has(at))
              continue;
            points.set(at, {
              recordedAtMs: at,
              latitude: Number(latitude),
              longitude: Number(longitude),
              fuelLevelPercent: orNull(fuel),
              speedKmh: orNull(speed),
            });
          }
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return [...points.values()].sort((a, b) => a.recordedAtMs - b.recordedAtMs);
    },
  };
}
