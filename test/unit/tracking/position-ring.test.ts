import { describe, expect, it } from 'vitest';
import { dynamoItemBytes } from '#shared/table/item-size.ts';
import type { PositionFix } from '#shared/tracking/domain/positions.ts';
import { packTuples } from '#shared/tracking/store/breadcrumb-packing.ts';
import {
  chunksOf,
  flushIfFull,
  MAX_SLICE_CHUNKS,
  mergeIntoRing,
  RING_ITEM_BYTES,
  RING_MAX_KEEP,
  RING_MAX_POINTS,
  slicesForOneWrite,
  toTuple,
} from '#shared/tracking/store/position-ring.ts';

const T0 = Date.parse('2026-11-21T00:00:00Z');
const fix = (recordedAtMs: number): PositionFix => ({
  latitude: 35,
  longitude: -97,
  recordedAtMs,
  receivedAtMs: recordedAtMs,
  fuelLevelPercent: null,
  speedKmh: null,
  headingDegrees: null,
  driverRef: null,
  address: null,
});

describe('slicesForOneWrite', () => {
  it('cuts a five-day backlog into slices of at most the chunks one transaction takes, oldest first, nothing lost', () => {
    const backlog = Array.from({ length: 500 }, (_, i) => fix(T0 + (499 - i) * 15 * 60_000));
    const slices = slicesForOneWrite(backlog);
    expect(slices.length).toBeGreaterThan(1);
    for (const slice of slices)
      expect(chunksOf(slice.map(toTuple)).length).toBeLessThanOrEqual(MAX_SLICE_CHUNKS);
    expect(slices.flat().map((f) => f.recordedAtMs)).toEqual(
      backlog.map((f) => f.recordedAtMs).sort((a, b) => a - b),
    );
  });

  it('keeps a request within one hour in one slice, however many breadcrumbs', () => {
    const burst = Array.from({ length: 500 }, (_, i) => fix(T0 + i * 1_000));
    expect(slicesForOneWrite(burst)).toEqual([burst]);
  });
});

describe('a flush within one transaction (100 actions)', () => {
  const item = { pk: 'FLEET#flt_1', sk: 'VEHPOS#veh_1', latitude: 35, longitude: -97, rv: 3 };
  const HOUR = 3_600_000;

  it('stays within 100 actions in the worst case, which reaches exactly 100', () => {
    // A sparse reporter's full ring, each breadcrumb in an hour of its own (one every 2 hours)…
    let ring = Array.from({ length: RING_MAX_POINTS }, (_, i) => toTuple(fix(T0 + 2 * i * HOUR)));
    expect(flushIfFull(item, ring, 0).flushed).toEqual([]);
    // …then a 500-item backlog: 38 older hours with a breadcrumb each, and 462 in one newer hour.
    const older = Array.from({ length: 38 }, (_, i) => fix(T0 - (i + 1) * HOUR - 60_000));
    const newest = T0 + 2 * RING_MAX_POINTS * HOUR;
    const newer = Array.from({ length: 462 }, (_, i) => fix(newest + i * 1_000));

    // As the store writes it: slice by slice, each merged into the ring and flushed in one transaction.
    const actions: number[] = [];
    for (const slice of slicesForOneWrite([...older, ...newer])) {
      const merged = mergeIntoRing(ring, slice);
      const { ring: kept, flushed } = flushIfFull(item, merged.ring, merged.added.length);
      actions.push(chunksOf(flushed).length + 1); // the chunks and the ring's own write
      ring = kept;
    }

    expect(Math.max(...actions)).toBe(100);
  });
});

describe('flushIfFull', () => {
  const item = { pk: 'FLEET#flt_1', sk: 'VEHPOS#veh_1', latitude: 35, longitude: -97, rv: 3 };
  const minuteFixes = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => fix(T0 + (from + i) * 60_000));

  it('keeps the ring until it holds RING_MAX_POINTS, then flushes all but what the request added', () => {
    const ring = minuteFixes(RING_MAX_POINTS).map(toTuple);
    expect(flushIfFull(item, ring, 10).flushed).toEqual([]);
    const { ring: merged } = mergeIntoRing(ring, minuteFixes(10, RING_MAX_POINTS));
    const { ring: kept, flushed } = flushIfFull(item, merged, 10);
    expect(kept).toEqual(merged.slice(-10));
    expect(flushed).toEqual(merged.slice(0, -10));
  });

  it('keeps at most RING_MAX_KEEP of a large request, and only what fits the item', () => {
    const ring = minuteFixes(400).map(toTuple);
    expect(flushIfFull(item, ring, 400).ring).toHaveLength(RING_MAX_KEEP);
    // Values no short decimal holds: 8 bytes each for lat and lon.
    const odd = Array.from({ length: 60 }, (_, i) => [
      T0 + i,
      35 + Math.PI * i,
      -97 - Math.E * i,
      1 / 3,
      1 / 7,
    ]);
    const addressed = { ...item, address: 'I-35 northbound, mile 221, '.repeat(11) };
    const { ring: kept } = flushIfFull(addressed, odd, 60);
    expect(kept.length).toBeLessThan(RING_MAX_KEEP);
    expect(dynamoItemBytes({ ...addressed, ring: packTuples(kept) })).toBeLessThanOrEqual(RING_ITEM_BYTES);
  });
});
