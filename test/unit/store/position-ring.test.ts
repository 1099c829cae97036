import { describe, expect, it } from 'vitest';
import type { PositionFix } from '../../../shared/domain/telematics/positions.ts';
import {
  chunksOf,
  MAX_SLICE_CHUNKS,
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
