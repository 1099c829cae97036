/**
 * The ring of a vehicle's newest breadcrumbs, kept in its latest-position item until they are
 * flushed, a chunk at a time, to immutable history items. Pure: which breadcrumbs are new, when the
 * item is full, what a flush writes. Why a ring: one write per vehicle and request then stores the
 * breadcrumbs and moves the latest position, and a chunk of history costs one write for a few
 * dozen breadcrumbs (packed: breadcrumb-packing.ts) instead of one (growing) write each
 * (docs/architecture.md, "Breadcrumb history").
 */

import { dynamoItemBytes } from '#shared/table/item-size.ts';
import { breadcrumbTuple, type PositionFix } from '../domain/positions.ts';
import { type HistoryTuple, packTuples } from './breadcrumb-packing.ts';

export type { HistoryTuple };

export const toTuple = (f: PositionFix): HistoryTuple => breadcrumbTuple(f);

/**
 * The latest-position item stays under this many bytes (one write unit is 1 KB): past it, the
 * oldest breadcrumbs of the ring are flushed.
 */
export const RING_ITEM_BYTES = 1000;
/**
 * Room the ring always has, whatever the position's own attributes take (a 300-character address
 * in a non-Latin script is over 1 KB): past 1 KB the budget is the next KB boundary above the
 * position plus this room, so a long address costs a second write unit, not a flush every request.
 */
export const MIN_RING_ROOM_BYTES = 400;
/**
 * A flush keeps the breadcrumbs the request added (the worker has not consumed them yet: it reads
 * them from the ring, and queries history for those a flush took), but at least
 * {@link RING_MIN_KEEP} and at most {@link RING_MAX_KEEP} (fewer when they would not fit the item),
 * so the next flush is a dozen breadcrumbs away rather than one. 24 covers a partner's 10 a truck
 * a request plus the up to 10 a quiet worker cycle leaves unconsumed (docs/architecture.md).
 */
export const RING_MIN_KEEP = 2;
export const RING_MAX_KEEP = 24;
/**
 * The ring holds at most this many breadcrumbs, whatever room the item has left (packed, a
 * breadcrumb a minute apart takes ~10 bytes, so the 1 KB item is what usually bounds it, at 40–60
 * depending on how many decimals the coordinates carry (~55 with 5, ~45 with 6),
 * with a short address). Why a bound as well: the vehicle-updates message carries the ring as
 * tuples (~45 bytes a breadcrumb: messages.ts), so 10 messages stay within one 64 KB SQS billing
 * chunk; and a flush of a full ring whose breadcrumbs each fall in another hour (one every few
 * hours) writes at most this many chunks, which with {@link MAX_SLICE_CHUNKS} and the ring write
 * stays within a transaction's 100 actions. The fuller the ring, the rarer the flush and its
 * transaction (32 before the message carried tuples: a flush every ~30 breadcrumbs, now every 40–60).
 */
export const RING_MAX_POINTS = 60;
/** A chunk holds at most this many breadcrumbs (a 500-item request for one truck: a few chunks). */
export const MAX_CHUNK_POINTS = 240;
const HOUR_MS = 3_600_000;

export interface RingMerge {
  /** The ring after the merge, oldest first. */
  ring: HistoryTuple[];
  /** The fixes not stored before (by recorded time; the first copy wins), in input order. */
  added: PositionFix[];
}

/** Adds the fixes whose recorded time the ring does not hold yet; the ring stays sorted by time. */
export function mergeIntoRing(ring: readonly HistoryTuple[], fixes: readonly PositionFix[]): RingMerge {
  const times = new Set(ring.map((tuple) => Number(tuple[0])));
  const added: PositionFix[] = [];
  for (const fix of fixes) {
    if (times.has(fix.recordedAtMs)) continue;
    times.add(fix.recordedAtMs);
    added.push(fix);
  }
  const merged = [...ring, ...added.map(toTuple)].sort((a, b) => Number(a[0]) - Number(b[0]));
  return { ring: merged, added };
}

export interface RingFlush {
  /** What stays in the item. */
  ring: HistoryTuple[];
  /** The oldest breadcrumbs, to history (empty: nothing to flush). */
  flushed: HistoryTuple[];
}

/**
 * Splits off the oldest breadcrumbs when the item would outgrow {@link RING_ITEM_BYTES} (or, for a
 * position whose attributes alone are large, its KB boundary: {@link MIN_RING_ROOM_BYTES}),
 * keeping the newest few (see {@link RING_MAX_KEEP}).
 */
export function flushIfFull(
  item: Record<string, unknown>,
  ring: readonly HistoryTuple[],
  addedCount: number,
): RingFlush {
  const sized = (kept: readonly HistoryTuple[]) => dynamoItemBytes({ ...item, ring: packTuples(kept) });
  const budget = Math.max(RING_ITEM_BYTES, Math.ceil((sized([]) + MIN_RING_ROOM_BYTES) / 1024) * 1024 - 24);
  if (ring.length <= RING_MAX_POINTS && sized(ring) <= budget) return { ring: [...ring], flushed: [] };
  let keep = Math.min(ring.length, Math.max(RING_MIN_KEEP, Math.min(addedCount, RING_MAX_KEEP)));
  // Breadcrumbs whose values no short decimal holds take up to 46 bytes: keep what fits.
  while (keep > RING_MIN_KEEP && sized(ring.slice(ring.length - keep)) > budget) keep--;
  return { ring: ring.slice(ring.length - keep), flushed: ring.slice(0, ring.length - keep) };
}

/** Flushed breadcrumbs by UTC hour, in chunks of at most {@link MAX_CHUNK_POINTS}, oldest first. */
export function chunksOf(flushed: readonly HistoryTuple[]): { hourMs: number; points: HistoryTuple[] }[] {
  const chunks: { hourMs: number; points: HistoryTuple[] }[] = [];
  for (const tuple of flushed) {
    const hourMs = Math.floor(Number(tuple[0]) / HOUR_MS) * HOUR_MS;
    const last = chunks.at(-1);
    if (last && last.hourMs === hourMs && last.points.length < MAX_CHUNK_POINTS) last.points.push(tuple);
    else chunks.push({ hourMs, points: [tuple] });
  }
  return chunks;
}

/**
 * Chunks one slice of a request may flush: with the ring's own breadcrumbs (at most
 * {@link RING_MAX_POINTS}, so at most that many more chunks) and the ring write, a flush stays
 * within a transaction's 100 actions. A 500-item backlog spanning days is written in several slices.
 */
export const MAX_SLICE_CHUNKS = 100 - RING_MAX_POINTS - 1;

/** The request's breadcrumbs oldest first, cut where a slice would flush more than {@link MAX_SLICE_CHUNKS} chunks. */
export function slicesForOneWrite(fixes: readonly PositionFix[]): PositionFix[][] {
  const sorted = [...fixes].sort((a, b) => a.recordedAtMs - b.recordedAtMs);
  // The chunks these breadcrumbs would make (the flush's own rule), taken MAX_SLICE_CHUNKS at a time.
  const chunks = chunksOf(sorted.map(toTuple));
  const slices: PositionFix[][] = [];
  let start = 0;
  for (let i = 0; i < chunks.length; i += MAX_SLICE_CHUNKS) {
    const count = chunks.slice(i, i + MAX_SLICE_CHUNKS).reduce((sum, chunk) => sum + chunk.points.length, 0);
    slices.push(sorted.slice(start, start + count));
    start += count;
  }
  return slices;
}
