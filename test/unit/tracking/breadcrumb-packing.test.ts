import { describe, expect, it } from 'vitest';
import { kmhFromMph } from '#shared/tracking/domain/speed.ts';
import {
  type HistoryTuple,
  PACKING_VERSION,
  packTuples,
  tuplesOf,
  unpackTuples,
} from '#shared/tracking/store/breadcrumb-packing.ts';

const T0 = Date.parse('2026-11-21T12:40:00Z');
const roundTrip = (tuples: HistoryTuple[]) => unpackTuples(packTuples(tuples));

/** A truck a minute apart on the road: what a ring or chunk usually holds. */
const drive = (count: number): HistoryTuple[] =>
  Array.from({ length: count }, (_, m) => [
    T0 + m * 60_000 + (m % 3) * 17,
    Math.round((32.7767 + m * 0.0121) * 1e5) / 1e5,
    Math.round((-96.797 - m * 0.0143) * 1e5) / 1e5,
    Math.round((90 - m * 0.13) * 10) / 10,
    kmhFromMph(55 + (m % 7)),
  ]);

describe('packed breadcrumbs', () => {
  it('round-trips every field exactly: times to the ms, lat/lon, fuel and speed as stored', () => {
    const tuples = drive(60);
    expect(roundTrip(tuples)).toEqual(tuples);
  });

  it('round-trips nulls, values no decimal scale holds, -0, extremes and a fix out of time order', () => {
    const tuples: HistoryTuple[] = [
      [T0, 35.000000000000014, -97.12345678912345, null, null],
      [T0 + 1, 0.1 + 0.2, 1 / 3, 0, -0],
      [T0 - 3_600_000, -90, 180, 100, 0.01],
      [T0 + 2, 89.999999999, -179.999999999, null, 250.75],
      [0, 0, 0, 1e-9, 1e300],
      [Number.MAX_SAFE_INTEGER, -1e-7, 2 ** 52 + 0.5, 62.5, 62],
    ];
    const back = roundTrip(tuples);
    expect(back).toEqual(tuples);
    // toEqual treats -0 as 0: the sign must survive too.
    expect(Object.is(back[1]?.[4], -0)).toBe(true);
    expect(Object.is(back[1]?.[3], 0)).toBe(true);
  });

  it('round-trips a fractional millisecond time (a value no scale-0 integer holds)', () => {
    const tuples: HistoryTuple[] = [[T0 + 0.123, 35, -97, 50, 80]];
    expect(roundTrip(tuples)).toEqual(tuples);
  });

  it('packs an empty ring', () => {
    expect(roundTrip([])).toEqual([]);
    expect([...packTuples([])]).toEqual([PACKING_VERSION, 0]);
  });

  it('takes a few bytes a breadcrumb instead of the list layout’s ~30', () => {
    const packed = packTuples(drive(48));
    // Header 2 bytes, the first point ~25, then ~11 each (time 3, lat/lon 2 each, fuel 1, speed 2, header 1).
    expect(packed.byteLength).toBeLessThan(48 * 12);
  });

  it('refuses what it did not write: another version, a truncated value, trailing bytes, a bad mode', () => {
    const packed = packTuples(drive(3));
    expect(() => unpackTuples(Uint8Array.of(2, ...packed.subarray(1)))).toThrow(/version 2/);
    expect(() => unpackTuples(packed.subarray(0, packed.length - 1))).toThrow(/truncated/);
    expect(() => unpackTuples(Uint8Array.of(...packed, 0))).toThrow(/trailing/);
    // One point whose header says field 0 changes to mode 12 (there is none).
    expect(() => unpackTuples(Uint8Array.of(PACKING_VERSION, 1, 0b1, 12))).toThrow(/mode 12/);
    expect(() => packTuples([[T0, 35, -97]])).toThrow(/5 fields/);
  });
});

describe('tuplesOf (both stored layouts)', () => {
  it('reads a packed value, a list of number lists (items from before packing) and an absent one', () => {
    const tuples = drive(5);
    tuples[2] = [T0 + 7, 35.1, -97.2, null, null];
    expect(tuplesOf(packTuples(tuples))).toEqual(tuples);
    expect(tuplesOf(tuples.map((t) => [...t]))).toEqual(tuples);
    expect(tuplesOf(undefined)).toEqual([]);
    // What code from before packing leaves when it merges into a packed ring: its bytes as numbers.
    expect(tuplesOf([1, 0, 42, ...tuples.map((t) => [...t])])).toEqual(tuples);
    expect(() => tuplesOf('not breadcrumbs')).toThrow(/neither packed nor a list/);
  });
});
