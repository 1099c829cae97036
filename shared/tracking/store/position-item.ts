import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { travelHeading } from '../domain/heading.ts';
import type { HistoryPoint, LatestPosition, PositionFix } from '../domain/positions.ts';
import { tuplesOf } from './breadcrumb-packing.ts';
import type { HistoryTuple } from './position-ring.ts';

/**
 * A vehicle's latest position (`FLEET#…`/`VEHPOS#veh_…`), written with a condition so it only
 * moves forward in time: a late, older breadcrumb never overwrites a newer one. It carries the
 * breadcrumbs newer than history (`ring`, packed), how far history reaches (`flushed_through_ms`),
 * its ring version (`rv`) and the online index's keys (online-index.ts).
 */
export const latestPositionKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHPOS#${vehicleId}`,
});

export const orNull = (value: unknown) => (value === undefined || value === null ? null : Number(value));

export const pointOf = ([recordedAtMs, latitude, longitude, fuel, speed]: HistoryTuple): HistoryPoint => ({
  recordedAtMs: Number(recordedAtMs),
  latitude: Number(latitude),
  longitude: Number(longitude),
  fuelLevelPercent: orNull(fuel),
  speedKmh: orNull(speed),
});

export type PositionItem = Record<string, unknown>;

export async function readPositionItem(
  client: DocumentClient,
  tableName: string,
  fleetId: string,
  vehicleId: string,
  consistent: boolean,
): Promise<PositionItem | null> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: latestPositionKey(fleetId, vehicleId),
      ConsistentRead: consistent,
    }),
  );
  return Item ?? null;
}

export function latestOf(item: PositionItem): LatestPosition {
  const recordedAtMs = Number(item.recorded_at_ms ?? Date.parse(String(item.recorded_at)));
  const latest: LatestPosition = {
    latitude: Number(item.latitude),
    longitude: Number(item.longitude),
    recordedAt: String(item.recorded_at),
    recordedAtMs,
    receivedAtMs: Number(item.received_at_ms ?? recordedAtMs),
    fuelLevelPercent: orNull(item.fuel_level_percent),
    speedKmh: orNull(item.speed_kmh),
    headingDegrees: orNull(item.heading_degrees),
    driverRef: (item.driver_ref as string | undefined) ?? null,
    address: (item.address as string | undefined) ?? null,
  };
  // The ring holds the breadcrumbs just before it: enough to tell which way the truck is going.
  return { ...latest, travelHeadingDegrees: travelHeading(latest, ringOfItem(item).map(pointOf)) };
}

/**
 * The item's ring and how far history reaches. An item without a ring (no `ring`
 * attribute) counts as having every breadcrumb up to its position in history.
 */
export const ringOfItem = (item: PositionItem | null): HistoryTuple[] => (item ? ringOf(item).ring : []);

export function ringOf(item: PositionItem): { ring: HistoryTuple[]; flushedThroughMs: number | null } {
  if (item.ring === undefined) return { ring: [], flushedThroughMs: orNull(item.recorded_at_ms) };
  // Packed, or a list of number lists in an item no request has rewritten since packing.
  return { ring: tuplesOf(item.ring), flushedThroughMs: orNull(item.flushed_through_ms) };
}

/** The latest position's attributes (the names GET …/location and the scorecard read). */
export const latestAttributes = (fix: PositionFix): Record<string, unknown> => ({
  latitude: fix.latitude,
  longitude: fix.longitude,
  recorded_at: formatTimestamp(fix.recordedAtMs),
  recorded_at_ms: fix.recordedAtMs,
  received_at_ms: fix.receivedAtMs,
  fuel_level_percent: fix.fuelLevelPercent,
  speed_kmh: fix.speedKmh,
  heading_degrees: fix.headingDegrees,
  driver_ref: fix.driverRef,
  address: fix.address,
});

/** The write's condition: the item is still as read (its ring version, or absent, or an item without a ring). */
export function expectUnchanged(item: PositionItem | null) {
  if (!item) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (item.rv === undefined) {
    return {
      ConditionExpression: 'attribute_not_exists(rv) AND recorded_at_ms = :read',
      ExpressionAttributeValues: { ':read': item.recorded_at_ms },
    };
  }
  return expectVersion(Number(item.rv));
}

/** The condition that the item exists at ring version `version` (0: an item without a ring). */
export const expectVersion = (version: number) =>
  version === 0
    ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rv)' }
    : { ConditionExpression: 'rv = :version', ExpressionAttributeValues: { ':version': version } };
