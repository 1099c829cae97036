/**
 * The online index: which vehicles the offline sweep must look at, found without scanning the
 * table. Every latest-position item carries its keys in gsi2 (keys only): `VEHONLINE#<shard>`,
 * sorted by the 12-minute bucket of the position's receipt time. Ingest rewrites the item with
 * every request, but DynamoDB writes a keys-only index entry only when its keys change, so the
 * index costs two small writes (delete and put) per vehicle each time its bucket moves on. The
 * sweep takes a vehicle out (removes the keys) when it marks it offline; its next breadcrumb puts
 * it back.
 */

/** Spreads the index over partitions; the sweep queries each shard. */
export const ONLINE_INDEX_SHARDS = 16;

/**
 * How coarse the index's time is. A vehicle's entry moves only when its receipt time enters a new
 * bucket: the coarser, the cheaper (2 write units per bucket). The sweep asks for buckets older
 * than the 15-minute offline threshold and reads the real receipt time before acting, so a coarse
 * bucket delays nothing; but a bucket that began before the threshold while the vehicle was heard
 * from after it makes a false candidate (two reads). At 12 minutes a vehicle reporting at least
 * every 3 minutes never is one.
 */
export const ONLINE_BUCKET_MS = 12 * 60_000;

export function onlineShardOf(vehicleId: string): number {
  let hash = 0;
  for (const char of vehicleId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % ONLINE_INDEX_SHARDS;
}

export const onlinePartition = (shard: number) => `VEHONLINE#${shard}`;

/** A time as the index's sort keys spell it (fixed width: they compare as strings). */
export const onlineSortTime = (ms: number) => String(Math.max(0, ms)).padStart(15, '0');

/** The gsi2 keys of a latest-position item received at `receivedAtMs`. */
export const positionOnlineKeys = (fleetId: string, vehicleId: string, receivedAtMs: number) => ({
  gsi2pk: onlinePartition(onlineShardOf(vehicleId)),
  gsi2sk: `${onlineSortTime(Math.floor(receivedAtMs / ONLINE_BUCKET_MS) * ONLINE_BUCKET_MS)}#${fleetId}#${vehicleId}`,
});

/** Fleet and vehicle of an index sort key (`<time>#<fleet>#<vehicle>`), with its time. */
export function parseOnlineSortKey(
  sortKey: string,
): { fleetId: string; vehicleId: string; atMs: number } | null {
  const [time, fleetId, vehicleId] = sortKey.split('#');
  return fleetId && vehicleId ? { fleetId, vehicleId, atMs: Number(time) } : null;
}
