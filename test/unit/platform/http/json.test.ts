import { describe, expect, it } from 'vitest';
import { canonicalJson } from '#shared/platform/http/json.ts';

describe('canonicalJson', () => {
  it('keeps members in insertion order, without whitespace', () => {
    // Act
    const text = canonicalJson({ id: 'veh_1', name: 'Truck', nested: { z: 1, a: 2 } });

    // Assess
    expect(text).toBe('{"id":"veh_1","name":"Truck","nested":{"z":1,"a":2}}');
  });

  it('prints numbers without trailing zeros, and -0 as 0', () => {
    // Act / Assess
    expect(canonicalJson({ a: 150.5, b: 150.0, c: 6.25, d: -0, e: 0.1 + 0.2 })).toBe(
      '{"a":150.5,"b":150,"c":6.25,"d":0,"e":0.30000000000000004}',
    );
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('refuses %s rather than sending null in its place', (_name, value) => {
    // Act / Assess
    expect(() => canonicalJson({ estimated_mpg: value })).toThrow(/Non-finite/);
    expect(() => canonicalJson({ stops: [{ gallons: value }] })).toThrow(/Non-finite/);
  });
});
