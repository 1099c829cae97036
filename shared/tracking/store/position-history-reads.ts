import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryPages } from '#shared/table/query-pages.ts';
import type { HistoryPoint, RecentPositions } from '../domain/positions.ts';
import { tuplesOf } from './breadcrumb-packing.ts';
import { historyBucketKey } from './position-history.ts';
import { pointOf, readPositionItem, ringOfItem } from './position-item.ts';
import type { HistoryTuple } from './position-ring.ts';

/** The worker reads at most this much history in one cycle (a vehicle back after a long silence). */
export const HISTORY_LOOKBACK_HOURS = 6;
/**
 * A worker that has consumed breadcrumbs before replays from there, at most this far back: a
 * vehicle without guidance may leave its last few breadcrumbs unstored (a quiet cycle) and then
 * fall silent for a weekend; those breadcrumbs (a fill that had not levelled off yet) must still be
 * replayed when it reports again. The silent hours in between cost nothing to query.
 */
export const REPLAY_LOOKBACK_DAYS = 7;

/**
 * Breadcrumbs recorded after `afterMs` (at most {@link REPLAY_LOOKBACK_DAYS} days back; all of
 * the last {@link HISTORY_LOOKBACK_HOURS} hours when null) up to `untilMs`, oldest first: the
 * hour items' range, then the ring of the latest-position item.
 */
export function createHistoryReader(client: DocumentClient, tableName: string) {
  return async function historySince(
    fleetId: string,
    vehicleId: string,
    afterMs: number | null,
    untilMs: number,
    /** The position item as `recent` read it just before (saves reading it again). */
    snapshot?: RecentPositions,
  ): Promise<HistoryPoint[]> {
    const lookbackStartMs =
      untilMs - (afterMs === null ? HISTORY_LOOKBACK_HOURS * 3_600_000 : REPLAY_LOOKBACK_DAYS * 86_400_000);
    const fromMs = Math.max(afterMs ?? lookbackStartMs, lookbackStartMs);
    // Keyed by time: appends store a breadcrumb once, but an item may still repeat one across items.
    const points = new Map<number, HistoryPoint>();
    const keep = (tuples: readonly HistoryTuple[]) => {
      for (const tuple of tuples) {
        const at = Number(tuple[0]);
        // The first copy of a resent breadcrumb wins, as in detection.
        if (at < fromMs || at > untilMs || (afterMs !== null && at <= afterMs) || points.has(at)) continue;
        points.set(at, pointOf(tuple));
      }
    };
    // The ring before the history items: a flush committed in between moves breadcrumbs from the
    // ring into a chunk the (consistent) query then sees; read the other way round, they would be
    // in neither. The worker hands over the item it read before calling.
    const ringPoints: HistoryTuple[] =
      snapshot?.recent.map((p) => [
        p.recordedAtMs,
        p.latitude,
        p.longitude,
        p.fuelLevelPercent,
        p.speedKmh,
      ]) ?? ringOfItem(await readPositionItem(client, tableName, fleetId, vehicleId, true));
    const pages = queryPages(client, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :until',
      ExpressionAttributeValues: {
        ':pk': `FLEET#${fleetId}`,
        ':from': historyBucketKey(fleetId, vehicleId, fromMs).sk,
        // The last hour's continuation items too (`…T13#0001` sorts before `…T13#~`).
        ':until': `${historyBucketKey(fleetId, vehicleId, untilMs).sk}#~`,
      },
      ProjectionExpression: 'points',
      ConsistentRead: true,
    });
    for await (const page of pages) for (const item of page) keep(tuplesOf(item.points));
    // The newest breadcrumbs are still in the latest-position item's ring.
    keep(ringPoints);
    return [...points.values()].sort((a, b) => a.recordedAtMs - b.recordedAtMs);
  };
}
