import { describe, expect, it } from 'vitest';
import { kmhFromMph, mphFromKmh } from '#shared/tracking/domain/speed.ts';

describe('breadcrumb speed: mph in, km/h stored, mph out', () => {
  it('converts at 1.609344 km/h per mph, stored to 0.01 km/h', () => {
    expect(kmhFromMph(60)).toBe(96.56);
    expect(kmhFromMph(0)).toBe(0);
    expect(mphFromKmh(96.56)).toBe(60);
  });

  it('reads back every speed sent to 0.1 mph exactly, across the accepted range (0–150 mph)', () => {
    // All 1,501 of them: few enough to check every one rather than a random sample.
    const speeds = Array.from({ length: 1501 }, (_, tenths) => tenths / 10);
    expect(speeds.filter((mph) => mphFromKmh(kmhFromMph(mph)) !== mph)).toEqual([]);
  });
});
