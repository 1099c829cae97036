import { describe, expect, it } from 'vitest';
import type { PositionFix } from '../../../shared/domain/telematics/positions.ts';
import { packTuples } from '../../../shared/store/breadcrumb-packing.ts';
import { dynamoItemBytes } from '../../../shared/store/item-size.ts';
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
} from '../../../shared/store/position-ring.ts';

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
