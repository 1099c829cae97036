import { describe, expect, it } from 'vitest';
import type { DriveSpec } from '#test/support/drives/generator.ts';
import type { CardPurchase, DriveOutcome, PricedStop, Sighting } from '#test/support/drives/harness.ts';
import {
  checkAttribution,
  type JudgedFill,
  judgeFill,
  type ReportedSavings,
} from '#test/support/drives/savings.ts';

/**
 * The independent judge behind `savings_report_attribution_errors`: if it priced a fill wrong, the
 * bench would blame a right report (or pass a wrong one). Figures by hand, Texas diesel tax $0.20.
 */
const START_MS = Date.parse('2026-11-02T06:00:00Z');
const MINUTE = 60_000;

const stop = (id: string, over: Partial<PricedStop> = {}): PricedStop => ({
  id,
  stationId: `stn_${id}`,
  latitude: 33,
  longitude: -97,
  price: 3.5,
  discount: 0.15,
  netPrice: 3.35,
  stateTax: 0.2,
  effectivePrice: 3.15,
  counterfactual: { pumpPrice: 3.4, netPrice: 3.28, stationCount: 9 },
  ...over,
});
const A = stop('a');
const B = stop('b', {
  effectivePrice: 3.1,
  counterfactual: { pumpPrice: 3.45, netPrice: 3.3, stationCount: 7 },
});

/** A view: the plan as of a breadcrumb recorded at +`minutes`, read 5 minutes later. */
const sighting = (minutes: number, stops: PricedStop[]): Sighting =>
  ({
    postedAtMs: START_MS + (minutes + 5) * MINUTE,
    active: true,
    stops,
    latest: { recordedAtMs: START_MS + minutes * MINUTE },
  }) as unknown as Sighting;

/** Shown A at the start; A still at +60 min, 4 miles ahead; at +90 min A gone (passed), B first. */
const outcome = (over: Partial<DriveOutcome> = {}): DriveOutcome =>
  ({
    spec: { index: 3 } as DriveSpec,
    vehicleId: 'veh_1',
    startMs: START_MS,
    stopsAtStart: [A],
    sightings: [sighting(60, [A]), sighting(90, [B])],
    purchases: [],
    ...over,
  }) as DriveOutcome;

const purchase = (stationId: string, minutes: number, over: Partial<CardPurchase> = {}): CardPurchase => ({
  fuelingId: 'fuel_1',
  stationId,
  state: 'TX',
  chain: "Love's",
  fueledAtMs: START_MS + minutes * MINUTE,
  gallons: 100,
  price: 3.5,
  discount: 0.15,
  postedAtMs: START_MS + (minutes + 20) * MINUTE,
  ...over,
});

describe('judgeFill', () => {
  it('a follower: the stop’s counterfactual, the saving (routing) with the card beside it, nothing missed', () => {
    const judged = judgeFill(outcome(), purchase('stn_a', 80));
    expect(judged).toMatchObject({ judgement: 'followed', stop: A, effectivePrice: 3.15 });
    // card (3.40 − 3.28) × 100, routing (3.28 − 3.15) × 100.
    expect(judged.cents).toEqual({ savings: 1300, card: 1200, routing: 1300, missed: 0 });
  });

  it('an early filler: the passed-over stop’s counterfactual, a negative routing saving, the missed saving', () => {
    const judged = judgeFill(outcome(), purchase('stn_x', 30, { price: 3.6, discount: 0.1 }));
    expect(judged).toMatchObject({ judgement: 'passed_over', stop: A, effectivePrice: 3.3 });
    // e = 3.60 − 0.10 − 0.20; routing (3.28 − 3.30) × 100; missed (3.30 − 3.15) × 100.
    expect(judged.cents).toEqual({ savings: -200, card: 1200, routing: -200, missed: 1500 });
  });

  it('passed over: the stop the truck was heading to, even when a later one shown is cheaper', () => {
    // A first, B second and cheaper, both standing at +30 min: judged against A.
    const both = outcome({ stopsAtStart: [A, B], sightings: [sighting(60, [A, B])] });
    const judged = judgeFill(both, purchase('stn_x', 30, { price: 3.6, discount: 0.1 }));
    expect(judged).toMatchObject({ judgement: 'passed_over', stop: A });
    expect(judged.cents).toEqual({ savings: -200, card: 1200, routing: -200, missed: 1500 });
  });

  it('passed over: a stop that became first since (A passed at +90, B first) wins over A in its grace', () => {
    // At +120 min A was passed 30 min before (within the 60-minute grace), but B is heading since +90.
    const judged = judgeFill(outcome(), purchase('stn_x', 120, { price: 3.6, discount: 0.1 }));
    expect(judged).toMatchObject({ judgement: 'passed_over', stop: B });
    expect(judged.cents).toEqual({ savings: 0, card: 1500, routing: 0, missed: 2000 });
  });

  it('a stop withdrawn stands for the grace when none became first since', () => {
    const withdrawnOnly = outcome({ sightings: [sighting(60, [A]), sighting(90, [])] });
    expect(judgeFill(withdrawnOnly, purchase('stn_x', 150, { price: 3.6 })).stop).toEqual(A);
    expect(judgeFill(withdrawnOnly, purchase('stn_x', 151, { price: 3.6 })).judgement).toBe(
      'no_recommendation',
    );
  });

  it('a follower of a stop withdrawn hours before still follows it (the match window), at its first prices', () => {
    const repriced = {
      ...A,
      effectivePrice: 3.0,
      counterfactual: { pumpPrice: 3.9, netPrice: 3.8, stationCount: 1 },
    };
    const judged = judgeFill(
      outcome({ sightings: [sighting(60, [repriced]), sighting(90, [B])] }),
      purchase('stn_a', 300),
    );
    expect(judged).toMatchObject({ judgement: 'followed', stop: A });
    expect(judged.cents.routing).toBe(1300);
  });

  it('no recommendation standing: the station is its own counterfactual (routing 0, card = discount × gallons)', () => {
    const judged = judgeFill(
      outcome({ stopsAtStart: [], sightings: [] }),
      purchase('stn_x', 30, { price: 3.6, discount: 0.1 }),
    );
    expect(judged).toMatchObject({ judgement: 'no_recommendation', stop: null });
    expect(judged.cents).toEqual({ savings: 0, card: 1000, routing: 0, missed: 0 });
  });

  it('a stop with no counterfactual published had only itself in reach', () => {
    const alone = stop('a', { counterfactual: null });
    const judged = judgeFill(outcome({ stopsAtStart: [alone], sightings: [] }), purchase('stn_a', 10));
    // pump 3.50 − tax 0.20 = 3.30; net = its effective 3.15.
    expect(judged.cents).toEqual({ savings: 0, card: 1500, routing: 0, missed: 0 });
  });

  it('a stop shown without a price basis has no counterfactual: the fill is its own (routing 0)', () => {
    const old = stop('a', { stateTax: null, effectivePrice: null, counterfactual: null });
    const judged = judgeFill(
      outcome({ stopsAtStart: [old], sightings: [] }),
      purchase('stn_x', 10, { price: 3.8, discount: 0.1 }),
    );
    // e = 3.80 − 0.10 − 0.20 = 3.50; passed over at its net price 3.35 (no tax known): missed 0.15 × 100.
    expect(judged).toMatchObject({ judgement: 'passed_over', stop: old });
    expect(judged.cents).toEqual({ savings: 0, card: 1000, routing: 0, missed: 1500 });
  });
});

describe('checkAttribution', () => {
  const follower = judgeFill(outcome(), purchase('stn_a', 80));
  const early = judgeFill(
    outcome({ vehicleId: 'veh_2' }),
    purchase('stn_x', 30, { price: 3.6, discount: 0.1 }),
  );
  const row = (fill: JudgedFill, over: Partial<ReportedSavings> = {}) => ({
    vehicle_id: fill.vehicleId,
    gallons: fill.purchase.gallons,
    savings_usd: fill.cents.savings / 100,
    card_savings_usd: fill.cents.card / 100,
    routing_savings_usd: fill.cents.routing / 100,
    missed_savings_usd: fill.cents.missed / 100,
    ...over,
  });
  const totals = {
    gallons: 200,
    savings_usd: 11,
    card_savings_usd: 24,
    routing_savings_usd: 11,
    missed_savings_usd: 15,
  };

  it('a report that agrees to the cent has no errors', () => {
    const check = checkAttribution('flt_1', [follower, early], {
      totals,
      vehicles: [row(follower), row(early)],
    });
    expect(check).toEqual({ splitErrors: [], rankingErrors: [], cheaperElsewhere: 0 });
  });

  it('counts a row and the totals off by more than a cent a fill, and a field the report lacks', () => {
    const check = checkAttribution('flt_1', [follower, early], {
      totals: { ...totals, routing_savings_usd: 11.02 },
      vehicles: [row(follower, { routing_savings_usd: 13.02 }), row(early, { card_savings_usd: undefined })],
    });
    expect(check.splitErrors).toEqual([
      { fleetId: 'flt_1', vehicleId: 'veh_1', field: 'routing', reported: 1302, expected: 1300 },
      { fleetId: 'flt_1', vehicleId: 'veh_2', field: 'card', reported: null, expected: 1200 },
    ]);
    // Two fills: the totals may be two cents off.
    expect(
      checkAttribution('flt_1', [follower, early], {
        totals: { ...totals, routing_savings_usd: 11.03 },
        vehicles: [row(follower), row(early)],
      }).splitErrors,
    ).toEqual([{ fleetId: 'flt_1', vehicleId: null, field: 'routing', reported: 1103, expected: 1100 }]);
  });

  it('counts an early filler credited with more routing saving per gallon than the stop’s follower', () => {
    // The old benchmark report: 20 cents a gallon "saved" by the driver who ignored the stop; a follower of A shows 13.
    const check = checkAttribution('flt_1', [early], {
      totals: { ...totals, savings_usd: 20, routing_savings_usd: 20 },
      vehicles: [row(early, { savings_usd: 20, routing_savings_usd: 20 })],
    });
    expect(check.rankingErrors).toEqual([
      {
        fleetId: 'flt_1',
        vehicleId: 'veh_2',
        reportedPerGallon: 0.2,
        followerPerGallon: expect.closeTo(0.13, 6),
      },
    ]);
  });

  it('a driver who found a cheaper price than the stop is not an error, but is counted', () => {
    const cheaper = judgeFill(outcome(), purchase('stn_x', 30, { price: 3.4, discount: 0.1 }));
    const check = checkAttribution('flt_1', [cheaper], {
      totals: row(cheaper),
      vehicles: [row(cheaper)],
    });
    expect(check).toEqual({ splitErrors: [], rankingErrors: [], cheaperElsewhere: 1 });
  });

  it('a truck in the report with no card purchase must show nothing saved', () => {
    const check = checkAttribution('flt_1', [], {
      totals: {
        ...totals,
        savings_usd: 0,
        card_savings_usd: 0,
        routing_savings_usd: 0,
        missed_savings_usd: 0,
      },
      vehicles: [row(follower)],
    });
    expect(check.splitErrors.map((e) => [e.vehicleId, e.field])).toEqual([
      ['veh_1', 'savings'],
      ['veh_1', 'card'],
      ['veh_1', 'routing'],
    ]);
  });
});
