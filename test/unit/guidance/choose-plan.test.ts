import { describe, expect, it } from 'vitest';
import type { CandidateStation, FuelPlanInput } from '../../../shared/domain/fuel-plan/index.ts';
import { planFuel } from '../../../shared/domain/fuel-plan/index.ts';
import { choosePlan } from '../../../shared/domain/guidance/plan-choice.ts';

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

  it('keeps the recommended stop while it costs at most $5 more, and switches when the new one saves more', () => {
    // 'dear' was recommended; 'cheap' is now known. 0.30 $/gal on ~80 gal is ~$24: switch.
    expect(choosePlan(trip(), ['dear']).stops[0]?.stationId).toBe('cheap');
    // A cheaper station by 2 cents on ~80 gallons saves ~$1.6: keep what the driver was told.
    const close = trip({ stations: [station('cheap', 200, 3.48), station('dear', 150, 3.5)] });
    expect(choosePlan(close, []).stops[0]?.stationId).toBe('cheap');
    expect(choosePlan(close, ['dear']).stops[0]?.stationId).toBe('dear');
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
