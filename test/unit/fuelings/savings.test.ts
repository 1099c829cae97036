import { describe, expect, it } from 'vitest';
import { daysOf, reportPeriod } from '../../../shared/domain/fuelings/period.ts';
import {
  adherenceRate,
  averagePrice,
  fuelingFigures,
  missedSavings,
  NO_FIGURES,
  publishFigures,
} from '../../../shared/domain/fuelings/savings.ts';
import type { Fueling } from '../../../shared/domain/telematics/fueling-record.ts';
import { report } from '../../../shared/usecases/savings-report.ts';

function fueling(overrides: Partial<Fueling> = {}): Fueling {
  return {
    id: 'fuel_1',
    vehicleId: 'veh_1',
    source: 'reported',
    gallons: 100,
    fueledAt: '2026-11-10T12:00:00.000000Z',
    latitude: 35,
    longitude: -97,
    fuelLevelBeforePercent: null,
    fuelLevelAfterPercent: null,
    guidanceId: null,
    stopId: null,
    stationId: null,
    createdAt: '2026-11-10T12:05:00.000000Z',
    netPrice: 3.4,
    benchmarkPrice: 3.55,
    ...overrides,
  };
}

describe('what one fill contributes', () => {
  it('spend = net × gallons, benchmark = benchmark price × gallons (hand-computed)', () => {
    // 100 gal at $3.40 net = $340.00; benchmark $3.55 × 100 = $355.00; saving $15.00.
    expect(fuelingFigures(fueling())).toEqual({
      ...NO_FIGURES,
      fuelings: 1,
      milliGallons: 100_000,
      pricedMilliGallons: 100_000,
      spendCents: 34_000,
      benchmarkCents: 35_500,
    });
  });
  it('a reported total is what was spent', () => {
    // 80.5 gal, total $277.33, benchmark 3.499 × 80.5 = 281.6695 → $281.67.
    const figures = fuelingFigures(
      fueling({ gallons: 80.5, totalUsd: 277.33, netPrice: 3.445, benchmarkPrice: 3.499 }),
    );
    expect(figures.spendCents).toBe(27_733);
    expect(figures.benchmarkCents).toBe(28_167);
  });
  it('an unpriced fill counts its gallons but no money', () => {
    const figures = fuelingFigures(fueling({ source: 'detected', netPrice: null }));
    expect(figures).toEqual({ ...NO_FIGURES, fuelings: 1, milliGallons: 100_000 });
  });
  it('without a benchmark the fill saved nothing', () => {
    const figures = fuelingFigures(fueling({ benchmarkPrice: null }));
    expect(figures.benchmarkCents).toBe(figures.spendCents);
  });
  it('a detection merged into a reported fill counts nothing', () => {
    expect(fuelingFigures(fueling({ source: 'detected', linkedFuelingId: 'fuel_2' }))).toEqual(NO_FIGURES);
    expect(fuelingFigures(fueling({ source: 'reported', linkedFuelingId: 'fuel_2' })).fuelings).toBe(1);
  });
  it('carries its missed savings', () => {
    expect(fuelingFigures(fueling({ missedSavingsUsd: 12.34 })).missedCents).toBe(1234);
  });
});

describe('missed savings', () => {
  it('(net paid − recommended net) × gallons, never negative', () => {
    expect(missedSavings(3.6, 3.45, 120)).toBe(18);
    expect(missedSavings(3.4, 3.45, 120)).toBe(0);
    expect(missedSavings(null, 3.45, 120)).toBe(0);
  });
});

describe('the benchmark and the adherence rate', () => {
  it('averages posted prices to a tenth of a cent', () => {
    expect(averagePrice([3.459, 3.519, 3.6])).toBe(3.526);
    expect(averagePrice([])).toBeNull();
  });
  it('is followed ÷ due, null with nothing due', () => {
    expect(adherenceRate(3, 2)).toBe(0.6667);
    expect(adherenceRate(0, 0)).toBeNull();
  });
});

describe('the report', () => {
  const period = (
    reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, Date.UTC(2026, 11, 5)) as {
      ok: true;
      period: never;
    }
  ).period;
  it('totals are the sum of the vehicle rows; per-gallon and adherence recomputed from the sums', () => {
    const a = { ...fuelingFigures(fueling()), recommendedStops: 2, followedStops: 1 };
    const b = {
      ...fuelingFigures(fueling({ gallons: 50, netPrice: 3.6, benchmarkPrice: 3.5, missedSavingsUsd: 5 })),
    };
    const published = report(period, [
      { vehicleId: 'veh_a', externalRef: 'A', figures: a },
      { vehicleId: 'veh_b', externalRef: 'B', figures: b },
    ]);
    // A: spend 340, benchmark 355, saving 15 over 100 gal. B: spend 180, benchmark 175, saving −5 over 50 gal.
    expect(published.vehicles[0]).toMatchObject({
      savings_usd: 15,
      savings_usd_per_gallon: 0.15,
      adherence_rate: 0.5,
    });
    expect(published.vehicles[1]).toMatchObject({
      savings_usd: -5,
      missed_savings_usd: 5,
      adherence_rate: null,
    });
    expect(published.totals).toEqual({
      fuelings: 2,
      gallons: 150,
      spend_usd: 520,
      benchmark_spend_usd: 530,
      savings_usd: 10,
      savings_usd_per_gallon: 0.067,
      missed_savings_usd: 5,
      recommended_stops: 2,
      followed_stops: 1,
    });
    expect(published.adherence_rate).toBe(0.5);
    expect(published.period).toEqual({
      from: '2026-11-01T00:00:00.000000Z',
      to: '2026-12-01T00:00:00.000000Z',
    });
    expect(Object.keys(published.definitions)).toEqual(
      expect.arrayContaining([
        'savings_usd',
        'benchmark_spend_usd',
        'recommended_stops',
        'followed_stops',
        'adherence_rate',
      ]),
    );
  });
  it('with nothing recommended, adherence is null', () => {
    expect(report(period, []).adherence_rate).toBeNull();
  });
  it('publishes integer units back as gallons and dollars', () => {
    expect(publishFigures({ ...NO_FIGURES, milliGallons: 12_345, spendCents: 101 })).toMatchObject({
      gallons: 12.35,
      spend_usd: 1.01,
    });
  });
});

describe('the report period', () => {
  const now = Date.UTC(2026, 10, 23, 21, 0);
  it('defaults to the 30 UTC days ending today', () => {
    const result = reportPeriod({}, now);
    expect(result).toMatchObject({
      ok: true,
      period: { fromDay: '2026-10-25', toDay: '2026-11-23', days: 30 },
    });
  });
  it('takes dates and date-times, each standing for its UTC day', () => {
    const result = reportPeriod({ from: '2026-11-01T23:30:00-05:00', to: '2026-11-03' }, now);
    expect(result).toMatchObject({
      ok: true,
      period: { fromDay: '2026-11-02', toDay: '2026-11-03', days: 2 },
    });
    if (result.ok) expect(daysOf(result.period)).toEqual(['2026-11-02', '2026-11-03']);
  });
  it('refuses to before from, and more than 366 days', () => {
    expect(reportPeriod({ from: '2026-11-05', to: '2026-11-04' }, now)).toEqual({
      ok: false,
      field: 'to',
      message: 'must not be before from',
    });
    expect(reportPeriod({ from: '2025-01-01', to: '2026-01-01' }, now)).toMatchObject({
      ok: true,
      period: { days: 366 },
    });
    expect(reportPeriod({ from: '2025-01-01', to: '2026-01-02' }, now)).toEqual({
      ok: false,
      field: 'from',
      message: 'must be within 366 days of to (the period covers 367 days; at most 366 are reported)',
    });
  });
  it('refuses a date the calendar does not have, or a value of another form, naming the field', () => {
    for (const from of ['2026-02-31', '2026-02-30T10:00:00Z', '2026-13-01', 'Nov 1 2026', '2026-11-1']) {
      expect(reportPeriod({ from, to: '2026-11-20' }, now)).toMatchObject({ ok: false, field: 'from' });
    }
    expect(reportPeriod({ from: '2026-11-01', to: '2026-04-31' }, now)).toMatchObject({
      ok: false,
      field: 'to',
    });
    expect(reportPeriod({ from: '2024-02-29', to: '2024-03-01' }, now)).toMatchObject({ ok: true });
  });
  it('compares from and to by their days: a date-time later on the day of to is the same day', () => {
    expect(reportPeriod({ from: '2026-11-01T12:00:00Z', to: '2026-11-01' }, now)).toMatchObject({
      ok: true,
      period: { fromDay: '2026-11-01', toDay: '2026-11-01', days: 1 },
    });
  });
  it('names from when only a future from is sent (to is today)', () => {
    expect(reportPeriod({ from: '2026-11-30' }, now)).toMatchObject({ ok: false, field: 'from' });
    expect(reportPeriod({ from: '2026-11-23T23:00:00Z' }, now)).toMatchObject({
      ok: true,
      period: { days: 1 },
    });
  });
});
