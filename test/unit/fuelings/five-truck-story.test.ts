import { describe, expect, it } from 'vitest';
import { missedSavingsOf, pricedFill } from '#shared/fuelings/domain/fill-pricing.ts';
import {
  countsUnfollowed,
  type FillPlace,
  headingRecommendation,
  matchRecommendation,
} from '#shared/fuelings/domain/matching.ts';
import { savingsMethodologyMarkdown } from '#shared/fuelings/domain/methodology.ts';
import { reportPeriod } from '#shared/fuelings/domain/period.ts';
import type { RecommendedStop } from '#shared/fuelings/domain/recommendations.ts';
import { addFigures, fuelingFigures, NO_FIGURES } from '#shared/fuelings/domain/savings.ts';
import { report } from '#shared/reports/usecases/savings-report.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';

/*
 * Five trucks, Dallas → Denver. Guidance tells each to buy 100 gallons at the same Texas stop:
 * $3.47 posted, $0.20 card discount, $3.27 net, Texas tax $0.20 → $3.07 effective under ifta. The
 * stop's counterfactual (the stations each truck could have bought at instead): $3.35 without the
 * card, $3.19 with it. Four follow it; one fuels 55 miles earlier at Love's Denton, $3.518 posted,
 * $3.318 net, $3.118 effective.
 */
const T0 = Date.UTC(2026, 10, 20, 15, 0);
const MIN = 60_000;
const STOP_AT = { latitude: 33.95, longitude: -98.5 };
const DENTON = { latitude: 33.2148, longitude: -97.1331 };

const stopOf = (vehicleId: string): RecommendedStop & { countedDay: string | null } => ({
  vehicleId,
  guidanceId: `gd_${vehicleId}`,
  tripId: null,
  stopId: `gds_${vehicleId}`,
  tripStopId: null,
  stationId: 'stn_RECOMMENDED',
  stationName: 'Pilot Wichita Falls',
  ...STOP_AT,
  netPrice: 3.27,
  gallonsToBuy: 100,
  recommendedAtMs: T0,
  sequence: 0,
  price: 3.47,
  state: 'TX',
  stateTax: 0.2,
  taxTreatment: 'ifta',
  effectivePrice: 3.07,
  counterfactual: { pumpPrice: 3.35, netPrice: 3.19, stationCount: 11 },
  withdrawnAtMs: null,
  due: false,
  followedFuelingId: null,
  countedDay: null,
});

const fillOf = (vehicleId: string, at: 'stop' | 'denton'): Fueling => ({
  id: `fuel_${vehicleId}`,
  vehicleId,
  source: 'reported',
  gallons: 100,
  fueledAt: new Date(T0 + (at === 'stop' ? 90 : 35) * MIN).toISOString().replace('Z', '000Z'),
  ...(at === 'stop' ? STOP_AT : DENTON),
  fuelLevelBeforePercent: null,
  fuelLevelAfterPercent: null,
  guidanceId: null,
  stopId: null,
  stationId: at === 'stop' ? 'stn_RECOMMENDED' : 'stn_LOVES_DENTON',
  createdAt: new Date(T0 + 100 * MIN).toISOString(),
  price: at === 'stop' ? 3.47 : 3.518,
  discount: 0.2,
  netPrice: at === 'stop' ? 3.27 : 3.318,
  state: 'TX',
  stateTax: 0.2,
  taxTreatment: 'ifta',
});

const placeOf = (fill: Fueling): FillPlace => ({
  vehicleId: fill.vehicleId,
  fueledAtMs: Date.parse(fill.fueledAt),
  stationId: fill.stationId,
  latitude: fill.latitude,
  longitude: fill.longitude,
});

/** What recordFill does with a fill (fueling-records.ts), on the domain's rules alone. */
function judge(fill: Fueling, stop: ReturnType<typeof stopOf>) {
  const match = matchRecommendation(placeOf(fill), [stop]);
  if (match) {
    const priced = pricedFill(
      { ...fill, stopId: stop.stopId, guidanceId: stop.guidanceId },
      { stop, followed: true },
    );
    // Followed: withdrawn as the truck leaves it, counted recommended and followed.
    return { fueling: { ...priced, missedSavingsUsd: 0 }, recommended: 1, followed: 1 };
  }
  const passed = headingRecommendation(placeOf(fill), [stop]);
  const priced = pricedFill(fill, passed ? { stop: passed, followed: false } : null);
  const unfollowed = passed && countsUnfollowed(passed);
  return {
    fueling: {
      ...priced,
      passedOverStopId: passed?.stopId ?? null,
      missedSavingsUsd: passed ? missedSavingsOf(priced, passed) : 0,
    },
    recommended: unfollowed ? 1 : 0,
    followed: 0,
  };
}

const trucks = ['veh_1', 'veh_2', 'veh_3', 'veh_4', 'veh_5'];
const judged = trucks.map((vehicleId, index) =>
  judge(fillOf(vehicleId, index === 4 ? 'denton' : 'stop'), stopOf(vehicleId)),
);

describe('the five-truck story', () => {
  it('followers show a routing saving and the card saving, against the stop’s counterfactual', () => {
    for (const { fueling, recommended, followed } of judged.slice(0, 4)) {
      expect(fueling.counterfactual).toEqual({
        source: 'followed_recommendation',
        pumpPrice: 3.35,
        netPrice: 3.19,
        stationCount: 11,
      });
      expect(fueling.effectivePrice).toBe(3.07);
      // card (3.35 − 3.19) × 100 = $16.00; routing (3.19 − 3.07) × 100 = $12.00.
      expect(fueling.cardSavingsUsd).toBe(16);
      expect(fueling.routingSavingsUsd).toBe(12);
      expect(fueling.missedSavingsUsd).toBe(0);
      expect({ recommended, followed }).toEqual({ recommended: 1, followed: 1 });
    }
  });

  it('the early filler shows a smaller routing saving, a missed saving and an unfollowed stop', () => {
    const early = judged[4] as (typeof judged)[number];
    expect(early.fueling.counterfactual?.source).toBe('passed_over_recommendation');
    expect(early.fueling.effectivePrice).toBe(3.118);
    // card $16.00 (same corridor); routing (3.19 − 3.118) × 100 = $7.20; missed (3.118 − 3.07) × 100 = $4.80.
    expect(early.fueling.cardSavingsUsd).toBe(16);
    expect(early.fueling.routingSavingsUsd).toBe(7.2);
    expect(early.fueling.missedSavingsUsd).toBe(4.8);
    expect({ recommended: early.recommended, followed: early.followed }).toEqual({
      recommended: 1,
      followed: 0,
    });
  });

  it('no follower shows less routing saving than the truck that ignored the same stop', () => {
    const early = judged[4]?.fueling.routingSavingsUsd ?? Infinity;
    for (const { fueling } of judged.slice(0, 4)) expect(fueling.routingSavingsUsd).toBeGreaterThan(early);
  });

  it('the report: every truck’s stop recommended, four followed, the saving the sum of the fills', () => {
    const period = reportPeriod({ from: '2026-11-20', to: '2026-11-20' }, T0);
    if (!period.ok) throw new Error('period');
    const rows = judged.map(({ fueling, recommended, followed }) => ({
      vehicleId: fueling.vehicleId,
      externalRef: null,
      figures: addFigures(fuelingFigures(fueling), {
        ...NO_FIGURES,
        recommendedStops: recommended,
        followedStops: followed,
      }),
    }));
    const published = report(period.period, rows);
    // Followers 4 × $12, the early filler $7.20: $55.20 saved over 500 gallons; the card's
    // 5 × $16 beside it, not in it.
    expect(published.totals).toMatchObject({
      fuelings: 5,
      gallons: 500,
      spend_usd: 4 * 327 + 331.8,
      effective_spend_usd: 4 * 307 + 311.8,
      counterfactual_spend_usd: 5 * 319,
      card_savings_usd: 80,
      routing_savings_usd: 55.2,
      savings_usd: 55.2,
      savings_usd_per_gallon: 0.11,
      missed_savings_usd: 4.8,
      recommended_stops: 5,
      followed_stops: 4,
      fuel_tax_treatment: 'ifta',
    });
    expect(published.adherence_rate).toBe(0.8);
    expect(published.vehicles[4]).toMatchObject({
      recommended_stops: 1,
      followed_stops: 0,
      adherence_rate: 0,
    });
  });

  it('is the worked example the methodology publishes, with the same figures', () => {
    const text = savingsMethodologyMarkdown().join('\n');
    expect(text).toContain('follows it: savings $12.00 ($3.190 − $3.070 a gallon), card $16.00 beside it');
    expect(text).toContain('savings $7.20, missed $4.80, card $16.00 beside it');
  });
});
