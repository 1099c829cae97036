import { describe, expect, it } from 'vitest';
import { fuelGauge } from '../../../../web/sandbox/fuel-gauge.ts';

describe('fuelGauge', () => {
  it('fills to the percent and labels percent and gallons, rounded', () => {
    expect(fuelGauge({ percent: 54.2, gallons: 162.6 })).toEqual({
      level: 0.542,
      tone: 'ok',
      label: '54% (163 gal)',
    });
  });

  it.each([
    [25, 'ok'],
    [24.9, 'low'],
    [12.5, 'low'],
    [12.4, 'critical'],
    [0, 'critical'],
  ] as const)('reads %s%% as %s', (percent, tone) => {
    expect(fuelGauge({ percent, gallons: 10 }).tone).toBe(tone);
  });

  it('clamps a sensor reading outside 0..100 (slosh) to the gauge', () => {
    expect(fuelGauge({ percent: 103, gallons: 309 }).level).toBe(1);
    expect(fuelGauge({ percent: -2, gallons: 0 }).level).toBe(0);
  });

  it('shows an empty grey gauge that says why when there is no reading', () => {
    expect(fuelGauge(null)).toEqual({ level: 0, tone: 'unknown', label: 'no fuel reading' });
  });
});
