import { describe, expect, it } from 'vitest';
import { daysOf, reportPeriod } from '#shared/fuelings/domain/period.ts';
import {
  adherenceRate,
  fuelingFigures,
  NO_FIGURES,
  publishFigures,
  reportTreatment,
} from '#shared/fuelings/domain/savings.ts';
import { METHODOLOGY_PATH, report } from '#shared/reports/usecases/savings-report.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';

/** A fill on the ifta basis in Texas ($0.20 state tax): $3.60 posted, $0.20 off, $3.40 net, $3.20 effective. */
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
    price: 3.6,
    discount: 0.2,
    netPrice: 3.4,
    state: 'TX',
    stateTax: 0.2,
    taxTreatment: 'ifta',
    counterfactual: {
      source: 'passed_over_recommendation',
      pumpPrice: 3.45,
      netPrice: 3.28,
      stationCount: 9,
    },
    ...overrides,
  };
}

describe('what one fill contributes', () => {
  it('cash, the credited tax, the saving and the card beside it (hand-computed)', () => {
    // 100 gal at $3.40 net = $340.00 cash; $0.20 × 100 = $20.00 credited → $320.00 effective.
    // Saving (routing) (3.28 − 3.20) × 100 = $8.00; card (3.45 − 3.28) × 100 = $17.00, not in it.
    expect(fuelingFigures(fueling())).toEqual({
      ...NO_FIGURES,
      fuelings: 1,
      milliGallons: 100_000,
      pricedMilliGallons: 100_000,
      spendCents: 34_000,
      creditedTaxCents: 2_000,
      cardCents: 1_700,
      routingCents: 800,
      counterfactualMilliGallons: 100_000,
      iftaFuelings: 1,
      // A card purchase recorded without a verdict: among those not checked.
      reportedFuelings: 1,
    });
  });
  it('a reported total is what was spent; the credit comes off it', () => {
    // 80.5 gal, total $277.33; credited 0.20 × 80.5 = $16.10 → effective $261.23. Counterfactual
    // net 3.28 × 80.5 = $264.04 → saving $2.81; pump 3.45 × 80.5 = 277.725 → $277.73 → card $13.69.
    const figures = fuelingFigures(fueling({ gallons: 80.5, totalUsd: 277.33, netPrice: 3.445 }));
    expect(figures).toMatchObject({
      spendCents: 27_733,
      creditedTaxCents: 1_610,
      cardCents: 1_369,
      routingCents: 281,
      counterfactualMilliGallons: 80_500,
    });
    expect(publishFigures(figures)).toMatchObject({
      effective_spend_usd: 261.23,
      counterfactual_spend_usd: 264.04,
      savings_usd: 2.81,
      routing_savings_usd: 2.81,
      card_savings_usd: 13.69,
      savings_usd_per_gallon: 0.035,
    });
  });
  it('under pump nothing is credited', () => {
    const figures = fuelingFigures(
      fueling({
        taxTreatment: 'pump',
        counterfactual: { source: 'own_price', pumpPrice: 3.6, netPrice: 3.4, stationCount: null },
      }),
    );
    expect(figures).toMatchObject({
      spendCents: 34_000,
      creditedTaxCents: 0,
      pumpFuelings: 1,
      iftaFuelings: 0,
    });
    // Its own price: the card's $0.20 × 100 beside a saving of 0, its gallons in the per-gallon.
    expect(figures).toMatchObject({ cardCents: 2_000, routingCents: 0, counterfactualMilliGallons: 100_000 });
  });
  it('a record written before the counterfactual counts what its day element held: its spend, nothing claimed', () => {
    const { state: _s, stateTax: _t, taxTreatment: _r, counterfactual: _c, ...old } = fueling();
    expect(fuelingFigures(old as Fueling)).toEqual({
      ...NO_FIGURES,
      fuelings: 1,
      milliGallons: 100_000,
      pricedMilliGallons: 100_000,
      spendCents: 34_000,
      pumpFuelings: 1,
      reportedFuelings: 1,
    });
  });
  it('an unpriced fill counts its gallons and why it had no recommendation, but no money', () => {
    const figures = fuelingFigures(
      fueling({
        source: 'detected',
        netPrice: null,
        price: null,
        unmatchedReason: 'no_guidance',
        counterfactual: null,
      }),
    );
    expect(figures).toEqual({ ...NO_FIGURES, fuelings: 1, milliGallons: 100_000, noGuidanceFuelings: 1 });
  });
  it('a fill judged against a recommendation passed over is not one without a recommendation', () => {
    const passed = fuelingFigures(
      fueling({ unmatchedReason: 'not_at_recommended_station', passedOverStopId: 'gds_1' }),
    );
    expect(passed.notAtRecommendedStationFuelings).toBe(0);
    const alone = fuelingFigures(
      fueling({ unmatchedReason: 'not_at_recommended_station', passedOverStopId: null }),
    );
    expect(alone.notAtRecommendedStationFuelings).toBe(1);
    const noneDue = fuelingFigures(fueling({ unmatchedReason: 'no_stop_due', passedOverStopId: null }));
    expect(noneDue).toMatchObject({ noStopDueFuelings: 1, notAtRecommendedStationFuelings: 0 });
  });
  it('a detection merged into a reported fill counts nothing', () => {
    expect(fuelingFigures(fueling({ source: 'detected', linkedFuelingId: 'fuel_2' }))).toEqual(NO_FIGURES);
    expect(fuelingFigures(fueling({ source: 'reported', linkedFuelingId: 'fuel_2' })).fuelings).toBe(1);
  });
  it('carries its missed savings', () => {
    expect(fuelingFigures(fueling({ missedSavingsUsd: 12.34 })).missedCents).toBe(1234);
  });
});

describe('the adherence rate and the basis', () => {
  it('is followed ÷ recommended, null with nothing recommended', () => {
    expect(adherenceRate(3, 2)).toBe(0.6667);
    expect(adherenceRate(0, 0)).toBeNull();
  });
  it('says ifta, pump, mixed, or null without a priced fill', () => {
    expect(reportTreatment({ ...NO_FIGURES, iftaFuelings: 2 })).toBe('ifta');
    expect(reportTreatment({ ...NO_FIGURES, pumpFuelings: 1 })).toBe('pump');
    expect(reportTreatment({ ...NO_FIGURES, iftaFuelings: 1, pumpFuelings: 1 })).toBe('mixed');
    expect(reportTreatment(NO_FIGURES)).toBeNull();
  });
});

describe('the report', () => {
  const period = (
    reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, Date.UTC(2026, 11, 5)) as {
      ok: true;
      period: never;
    }
  ).period;
  it('totals are the sum of the vehicle rows; per-gallon, basis and adherence recomputed from the sums', () => {
    const a = { ...fuelingFigures(fueling()), recommendedStops: 2, followedStops: 1 };
    // B: 50 gal at $3.60 net under pump, priced against itself: card 0, routing 0; missed $5.
    const b = fuelingFigures(
      fueling({
        gallons: 50,
        price: 3.6,
        discount: 0,
        netPrice: 3.6,
        taxTreatment: 'pump',
        counterfactual: { source: 'own_price', pumpPrice: 3.6, netPrice: 3.6, stationCount: null },
        missedSavingsUsd: 5,
        unmatchedReason: 'no_guidance',
      }),
    );
    const published = report(period, [
      { vehicleId: 'veh_a', externalRef: 'A', figures: a },
      { vehicleId: 'veh_b', externalRef: 'B', figures: b },
    ]);
    expect(published.vehicles[0]).toMatchObject({
      savings_usd: 8,
      card_savings_usd: 17,
      routing_savings_usd: 8,
      savings_usd_per_gallon: 0.08,
      adherence_rate: 0.5,
      fuel_tax_treatment: 'ifta',
    });
    expect(published.vehicles[1]).toMatchObject({
      savings_usd: 0,
      missed_savings_usd: 5,
      adherence_rate: null,
      fuel_tax_treatment: 'pump',
    });
    expect(published.totals).toEqual({
      fuelings: 2,
      gallons: 150,
      spend_usd: 520,
      effective_spend_usd: 500,
      // A's $328 (3.28 × 100) + B's own $180: savings_usd = 508 − 500, the card's $17 beside it.
      counterfactual_spend_usd: 508,
      // v1's name of the same figure, kept for its clients.
      benchmark_spend_usd: 508,
      card_savings_usd: 17,
      routing_savings_usd: 8,
      savings_usd: 8,
      // $8 over the 150 gallons priced against a counterfactual.
      savings_usd_per_gallon: 0.053,
      missed_savings_usd: 5,
      recommended_stops: 2,
      followed_stops: 1,
      fuelings_without_recommendation: {
        total: 1,
        by_reason: {
          no_guidance: 1,
          outside_window: 0,
          no_position: 0,
          not_at_recommended_station: 0,
          no_stop_due: 0,
        },
      },
      fuel_tax_treatment: 'mixed',
    });
    expect(published.adherence_rate).toBe(0.5);
    expect(published.methodology).toBe(METHODOLOGY_PATH);
    expect(published.period).toEqual({
      from: '2026-11-01T00:00:00.000000Z',
      to: '2026-12-01T00:00:00.000000Z',
    });
    expect(Object.keys(published.definitions)).toEqual(
      expect.arrayContaining([
        'savings_usd',
        'counterfactual_spend_usd',
        'card_savings_usd',
        'routing_savings_usd',
        'effective_spend_usd',
        'fuel_tax_treatment',
        'fuelings_without_recommendation',
        'recommended_stops',
        'followed_stops',
        'adherence_rate',
      ]),
    );
    expect(JSON.stringify(published.definitions)).not.toContain('benchmark');
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
