import { describe, expect, it } from 'vitest';
import type { CandidateStation, FuelPlanInput } from '#shared/fuel-plan/domain/index.ts';
import { planFuel } from '#shared/fuel-plan/domain/index.ts';
import { planFirstStoppingAt } from '#shared/guidance/domain/committed-plan.ts';
import { choosePlan } from '#shared/guidance/domain/plan-choice.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';

const station = (id: string, milesAlongRoute: number, price: number): CandidateStation => ({
  id,
  name: id,
  milesAlongRoute,
  detourMiles: 0,
  pricePerGallon: price,
  discountPerGallon: 0,
  isStale: false,
});

const trip = (overrides: Partial<FuelPlanInput> = {}): FuelPlanInput => ({
  routeMiles: 600,
  destinationName: 'Denver',
  stations: [station('cheap', 200, 3.2), station('dear', 150, 3.5), station('near', 30, 3.6)],
  tankGallons: 150,
  mpg: 6.5,
  currentFuelGallons: 50,
  minArrivalGallons: 22.5,
  reserveGallons: 15,
  minPurchaseGallons: 20,
  ...overrides,
});

describe('the plan guidance shows', () => {
  it('is the cheapest plan when nothing was recommended yet', () => {
    const chosen = choosePlan(trip(), []);
    expect(chosen.stops.map((s) => s.stationId)).toEqual(planFuel(trip()).stops.map((s) => s.stationId));
    expect(chosen.stops[0]?.stationId).toBe('cheap');
  });

  it('keeps the shown stop unless a new plan saves the published margin and the stop is still far', () => {
    expect(GUIDANCE_POLICY).toMatchObject({ commitmentSwitchMinUsd: 20, commitmentFarMiles: 30 });
    const withCheap = (price: number, dearMiles = 150) =>
      trip({ stations: [station('cheap', 200, price), station('dear', dearMiles, 3.5)] });
    // 'dear' (150 mi out) was shown, 64.9 gal; 'cheap' at 3.10 saves 0.40 $/gal, ~$26 ≥ $20: switch.
    expect(choosePlan(withCheap(3.1), ['dear']).stops.map((s) => s.stationId)).toEqual(['cheap']);
    // At 3.20 it saves $19.47: not worth changing what the driver was told.
    expect(planFuel(withCheap(3.2)).stops[0]?.stationId).toBe('cheap');
    expect(choosePlan(withCheap(3.2), ['dear']).stops).toEqual([
      expect.objectContaining({ stationId: 'dear', gallons: 64.9 }),
    ]);
    // A few cents a gallon, even less so.
    expect(choosePlan(withCheap(3.48), ['dear']).stops[0]?.stationId).toBe('dear');
    // The $26 with the shown stop 30 miles out: the driver is already planning that exit.
    expect(choosePlan(withCheap(3.1, 30), ['dear']).stops[0]?.stationId).toBe('dear');
    expect(choosePlan(withCheap(3.1, 31), ['dear']).stops[0]?.stationId).toBe('cheap');
  });

  it('scales the margin with the fuel left to buy: 5 % of it when that is more than $20', () => {
    // A 300-gal tank on 1,500 miles buys ~176 gal (~$615 at $3.50): the margin is 5 % of it, ~$31.
    const big = (cheapPrice: number) =>
      trip({
        routeMiles: 1_500,
        tankGallons: 300,
        currentFuelGallons: 100,
        minArrivalGallons: 45,
        reserveGallons: 30,
        stations: [station('dear', 300, 3.5), station('cheap', 350, cheapPrice), station('late', 900, 3.5)],
      });
    const kept = choosePlan(big(3.35), ['dear']);
    expect(kept.stops.map((s) => s.stationId)).toEqual(['dear']);
    const saving = kept.totalCost - planFuel(big(3.35)).totalCost;
    expect(saving).toBeGreaterThan(GUIDANCE_POLICY.commitmentSwitchMinUsd);
    expect(saving).toBeLessThan(0.05 * kept.totalCost);
    expect(choosePlan(big(3.3), ['dear']).stops.map((s) => s.stationId)).toEqual(['cheap']);
  });

  it('keeps a shown stop the new plan no longer needs with the minimum purchase, the plan going on from there', () => {
    // 80 gal reach 'cheap' 200 mi out with room to spare: the cheapest plan skips 'near', 10 mi out.
    const input = trip({ currentFuelGallons: 80 });
    expect(planFuel(input).stops.map((s) => s.stationId)).toEqual(['cheap']);
    const chosen = choosePlan(input, ['near', 'cheap']);
    expect(chosen.stops.map((s) => s.stationId)).toEqual(['near', 'cheap']);
    expect(chosen.stops[0]).toMatchObject({ gallons: 20, netPrice: 3.6, cost: 72 });
    expect(chosen.stops[0]?.reason).toMatch(
      /^The stop you were given: \$3\.60 net\. Buy 20 gal \(the minimum purchase\)/,
    );
    // Still arrives with what was asked, and the sum adds up.
    expect(chosen.arrivalFuelGallons as number).toBeGreaterThanOrEqual(22.5);
    expect(chosen.totalCost).toBeCloseTo(
      chosen.stops.reduce((sum, s) => sum + s.cost, 0),
      2,
    );
    // No room in the tank for the minimum purchase: the stop no longer works.
    expect(choosePlan(trip({ currentFuelGallons: 140 }), ['near']).stops[0]?.stationId).not.toBe('near');
  });

  it('drops a shown stop that is gone from the corridor (skipped, closed, passed)', () => {
    expect(choosePlan(trip(), ['gone', 'dear']).stops[0]?.stationId).toBe('cheap');
  });

  it('keeps the later stops shown on the same margin', () => {
    const input = trip({
      routeMiles: 900,
      currentFuelGallons: 40,
      stations: [station('first', 20, 3.5), station('mid', 400, 3.45), station('alt', 420, 3.44)],
    });
    expect(choosePlan(input, []).stops.map((s) => s.stationId)).toEqual(['first', 'alt']);
    expect(choosePlan(input, ['first', 'mid']).stops.map((s) => s.stationId)).toEqual(['first', 'mid']);
  });

  it('gives way to "no stop needed" only beyond the hysteresis band, not as the gauge sloshes', () => {
    // 600 mi burn 92.3 gal; with 117 gal on board the truck arrives with 24.7 gal: 1.5 % of the tank
    // above the 22.5 gal asked, inside the 8-point band: the shown stop (150 mi out) stays.
    const sloshing = trip({ currentFuelGallons: 117 });
    expect(planFuel(sloshing).status).toBe('no_stop_needed');
    expect(choosePlan(sloshing, ['dear']).stops.map((s) => s.stationId)).toEqual(['dear']);
    // With 130 gal it arrives 10 points above: no stop needed, as the plan says.
    expect(choosePlan(trip({ currentFuelGallons: 130 }), ['dear']).status).toBe('no_stop_needed');
    // The other way there is no band: below the arrival margin a stop is always recommended.
    expect(choosePlan(trip({ currentFuelGallons: 110 }), []).stops.length).toBe(1);
  });

  it('lets a kept stop use half the reserve, not more', () => {
    // 'far' needs the truck to drive 230 mi on 50 gal: arrives with 14.6 gal (< 15 reserve, > 7.5).
    const input = trip({ stations: [station('far', 230, 3.2), station('early', 20, 3.21)] });
    expect(planFuel(input).stops[0]?.stationId).toBe('early');
    expect(choosePlan(input, ['far']).stops.map((s) => s.stationId)).toEqual(['far']);
    // 290 mi leaves 5.4 gal, inside the last half of the reserve: the kept stop no longer works.
    const tooFar = trip({ stations: [station('far', 290, 3.2), station('early', 20, 3.21)] });
    expect(choosePlan(tooFar, ['far']).stops[0]?.stationId).toBe('early');
  });

  it('keeps a stop shown below the reserve when a gauge wobble brings the reserve back', () => {
    // 19 gal: 'near' (20 mi) is reached with 15.9 gal, so the full 15-gal reserve holds — but only
    // by 0.9 gal, inside the 2 % (3 gal) a gauge wobbles. 'far' (97 mi) leaves 4.1 gal: below half
    // the reserve, so without the noise rule the wobble alone would swap the stop the driver saw.
    expect(GUIDANCE_POLICY.gaugeNoisePercent).toBe(2);
    const atEdge = trip({
      currentFuelGallons: 19,
      stations: [station('near', 20, 3.47), station('far', 97, 3.464)],
    });
    expect(planFuel(atEdge).stops[0]?.stationId).toBe('near');
    const kept = choosePlan(atEdge, ['far']);
    expect(kept.stops[0]?.stationId).toBe('far');
    expect(kept.reason).toMatch(/^Below the fuel reserve: /);
    // With 10 gal more the reserve is not at stake: 'far' (14.1 gal left) stays within half of it…
    expect(choosePlan(trip({ ...atEdge, currentFuelGallons: 29 }), ['far']).stops[0]?.stationId).toBe('far');
    // …and a truck clear of the edge whose shown stop eats into the last half of the reserve loses it.
    const clear = trip({
      currentFuelGallons: 25,
      stations: [station('near', 20, 3.47), station('far', 140, 3.464)],
    });
    expect(choosePlan(clear, ['far']).stops[0]?.stationId).toBe('near');
  });

  it('spends the reserve before calling a trip unreachable, and says so', () => {
    // 10 gal × 6.5 mpg = 65 mi of range; the only station is 50 mi ahead: feasible only below the reserve.
    const input = trip({ currentFuelGallons: 10, stations: [station('only', 50, 3.4)] });
    expect(planFuel(input).status).toBe('infeasible');
    const chosen = choosePlan(input, []);
    expect(chosen.status).toBe('ok');
    expect(chosen.stops[0]?.stationId).toBe('only');
    expect(chosen.reason).toMatch(/^Below the fuel reserve: /);
    // Out of range even without a reserve: infeasible, as the plan says.
    expect(choosePlan(trip({ currentFuelGallons: 5, stations: [station('only', 50, 3.4)] }), []).status).toBe(
      'infeasible',
    );
  });
});

describe('the counterfactual of a stop the driver was given', () => {
  it('is over every station in reach from the truck, those before the stop included', () => {
    // Prepare: 50 gal, 15-gal reserve: 35 gal reach 227.5 miles at 6.5 mpg, so near (mile 30,
    // $3.60), dear (150, $3.50) and cheap (200, $3.20) are all in reach. The driver was given dear.
    const input = trip();
    const [near, dear, cheap] = input.stations;
    if (!near || !dear || !cheap) throw new Error('the trip has three stations');

    // Act: dear first (the minimum purchase there), then the cheapest plan from it.
    const plan = planFirstStoppingAt(input, dear, [cheap]);

    // Assess: ($3.60 + $3.50 + $3.20) / 3 = $3.433, not dear's own price.
    expect(plan.stops[0]).toMatchObject({
      stationId: 'dear',
      counterfactual: { pumpPrice: 3.433, netPrice: 3.433, stationCount: 3 },
    });
    expect(plan.savings?.counterfactualCost).toBe(plan.counterfactual?.cost);
  });
});
