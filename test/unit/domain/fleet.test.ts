import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  effectiveMinArrivalFuelPercent,
} from '../../../shared/domain/fleet.ts';

describe('effectiveMinArrivalFuelPercent', () => {
  it('is 10 % when neither the request nor the fleet says otherwise', () => {
    // Assess
    expect(DEFAULT_MIN_ARRIVAL_FUEL_PERCENT).toBe(10);
    expect(effectiveMinArrivalFuelPercent(undefined, null)).toBe(10);
  });

  it("takes the fleet's setting when the request has none", () => {
    // Act / Assess
    expect(effectiveMinArrivalFuelPercent(undefined, { defaultMinArrivalFuelPercent: 25 })).toBe(25);
    expect(effectiveMinArrivalFuelPercent(undefined, { defaultMinArrivalFuelPercent: 0 })).toBe(0);
  });

  it("lets the request's value win, 0 included", () => {
    // Act / Assess
    expect(effectiveMinArrivalFuelPercent(15, { defaultMinArrivalFuelPercent: 25 })).toBe(15);
    expect(effectiveMinArrivalFuelPercent(0, { defaultMinArrivalFuelPercent: 25 })).toBe(0);
    expect(effectiveMinArrivalFuelPercent(80, null)).toBe(80);
  });
});
