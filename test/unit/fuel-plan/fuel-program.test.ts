import { describe, expect, it } from 'vitest';
import { planWithinProgram } from '#shared/fuel-plan/domain/fuel-program.ts';
import { planFuel } from '#shared/fuel-plan/domain/plan.ts';
import type { CandidateStation } from '#shared/fuel-plan/domain/types.ts';
import { station, trip } from './fixtures.ts';

// Every trip here: 200-gal tank, 5 mpg, 20-gal reserve, 20-gal minimum purchase, 40 gal on arrival.

const accepted = (id: string, miles: number, price: number, overrides: Partial<CandidateStation> = {}) =>
  station(id, miles, price, { inFuelProgram: true, offProgramPenalty: 0, ...overrides });
/** Off the program: under `preferred` with the penalty on it, under `required` never a stop. */
const refused = (id: string, miles: number, price: number, penalty = 0) =>
  station(id, miles, price, { inFuelProgram: false, offProgramPenalty: penalty });

describe('a required fuel program', () => {
  it('never stops at a refused station, and compares the purchase with the accepted ones only', () => {
    // Prepare: 100 gal on board, 600 miles: 120 gal burned + 40 on arrival → buy 60 gal. A is 20 ¢
    // cheaper but refused. 80 gal above the reserve reach 400 miles: A and B are both in reach.
    const input = trip({
      routeMiles: 600,
      stations: [refused('A', 100, 3.4), accepted('B', 200, 3.6)],
    });

    // Act
    const plan = planWithinProgram(input, 'required');
    const withoutProgram = planWithinProgram(input, 'none');

    // Assess
    expect(plan.status).toBe('ok');
    expect(plan.stops).toMatchObject([
      {
        stationId: 'B',
        gallons: 60,
        netPrice: 3.6,
        cost: 216,
        inFuelProgram: true,
        // The truck could not have used A: the counterfactual is B's own price.
        counterfactual: { pumpPrice: 3.6, netPrice: 3.6, stationCount: 1 },
      },
    ]);
    expect(withoutProgram.stops.map((stop) => [stop.stationId, stop.counterfactual.stationCount])).toEqual([
      ['A', 2],
    ]);
  });

  it('says no accepted station is in range, with the nearest one and the shortfall, and plans no stop', () => {
    // Prepare: 100 gal − 20 reserve = 80 gal = 400 miles of range. B (accepted) is at mile 450,
    // 1 mile off the route: 451 − 400 = 51 miles short, 51 / 5 mpg = 10.2 gal. Refused A at mile
    // 300 would do: fill there (40 → 200 gal), 700 miles burn 140, 60 ≥ 40 on arrival.
    const input = trip({
      routeMiles: 1000,
      stations: [refused('A', 300, 3.4), accepted('B', 450, 3.5, { detourMiles: 1, chain: "Love's" })],
    });

    // Act
    const plan = planWithinProgram(input, 'required');

    // Assess
    expect(planFuel(input).status).toBe('ok');
    expect(plan).toMatchObject({
      status: 'no_accepted_station_in_range',
      stops: [],
      totalCost: 0,
      arrivalFuelGallons: null,
      savings: null,
      reason:
        'No station on your fuel card program is within reach: the nearest, Station B at mile 450, ' +
        'is 51 miles beyond your range above the reserve (10.2 gal short).',
      fuelProgramShortfall: {
        code: 'no_accepted_station_in_range',
        nearestAcceptedStop: {
          stationId: 'B',
          name: 'Station B',
          chain: "Love's",
          state: null,
          milesAlongRoute: 450,
          detourMiles: 1,
        },
        shortfallMiles: 51,
        shortfallGallons: 10.2,
      },
    });
  });

  it('sends the truck to the last accepted fill before the uncovered stretch, and names no stop when none lies beyond', () => {
    // Prepare: accepted C at mile 100 fills to 200 gal; 900 miles more need 180 + 40 on arrival.
    // Refused A at mile 500 would top up. No accepted station lies beyond C.
    const input = trip({
      routeMiles: 1000,
      stations: [accepted('C', 100, 3.5), refused('A', 500, 3.4)],
    });

    // Act
    const plan = planWithinProgram(input, 'required');

    // Assess: 100 gal − 100 miles / 5 mpg = 80 on board at C; filling up there buys 120 gal. C fills
    // to 200 gal, 160 above the 40 gal required on arrival: 800 miles for 900.
    expect(plan.status).toBe('no_accepted_station_in_range');
    expect(plan.stops).toMatchObject([
      {
        stationId: 'C',
        gallons: 120,
        cost: 420,
        inFuelProgram: true,
        reason:
          'The last stop on your fuel card program before the stretch it does not cover: fill up, 120 gal at $3.50 net.',
      },
    ]);
    expect(plan).toMatchObject({ totalCost: 420, totalGallons: 120, arrivalFuelGallons: null });
    expect(plan.fuelProgramShortfall).toEqual({
      code: 'no_accepted_station_in_range',
      nearestAcceptedStop: null,
      shortfallMiles: null,
      shortfallGallons: null,
    });
    expect(plan.reason).toBe(
      'No station on your fuel card program covers the stretch after Station C (mile 100), and none lies further ahead. ' +
        'Cannot reach Denver with 20% in the tank: it is 900 miles after Station C (mile 100), range is 800 miles.',
    );
  });

  it('keeps a reachable accepted stop when the gap lies further on, and measures the shortfall from it', () => {
    // Prepare: 100-gal tank, 40 gal on board, 6.5 mpg, 10-gal reserve, 1000 miles. Accepted b at
    // mile 100 (5 mi off the route each way), refused p at 300, accepted c at 700 (5 mi off).
    const input = trip({
      routeMiles: 1000,
      tankGallons: 100,
      mpg: 6.5,
      currentFuelGallons: 40,
      reserveGallons: 10,
      minPurchaseGallons: 10,
      minArrivalGallons: 10,
      stations: [
        accepted('b', 100, 3.5, { name: "Love's b", detourMiles: 5 }),
        refused('p', 300, 3.4),
        accepted('c', 700, 3.5, { name: "Love's c", detourMiles: 5 }),
      ],
    });

    // Act
    const plan = planWithinProgram(input, 'required');

    // Assess: b is still the stop, never the refused one. At mile 100: 40 − 100 / 6.5 = 24.62 gal;
    // at b, 5 / 6.5 = 0.77 gal later, the tank takes 74.6 gal (whole 0.1 gal), plus 1.54 gal of
    // detour fuel: 76.1 gal. Back on the route 99.22 gal, 89.22 above the reserve: 579.9 miles, to
    // mile 679.9; c lies at 700 + 5 = 705 → 25.1 miles, 25.1 / 6.5 = 3.9 gal short.
    expect(planFuel(input).status).toBe('ok');
    expect(plan.status).toBe('no_accepted_station_in_range');
    expect(plan.stops.map((stop) => [stop.stationId, stop.gallons])).toEqual([['b', 76.1]]);
    expect(plan.fuelProgramShortfall).toMatchObject({
      nearestAcceptedStop: { stationId: 'c', milesAlongRoute: 700, detourMiles: 5 },
      shortfallMiles: 25.1,
      shortfallGallons: 3.9,
    });
    expect(plan.reason).toBe(
      "No station on your fuel card program covers the stretch after Love's b (mile 100): the next, " +
        "Love's c at mile 700, is 26 miles beyond the range there (3.9 gal short).",
    );
  });

  it('stays plainly infeasible when no station at all would do, program or not', () => {
    // Prepare: 80 gal of range (400 miles) and the only stations 500 miles out.
    const input = trip({
      routeMiles: 1000,
      stations: [refused('A', 500, 3.4), accepted('B', 500, 3.5)],
    });

    // Act
    const plan = planWithinProgram(input, 'required');

    // Assess
    expect(plan.status).toBe('infeasible');
    expect(plan.fuelProgramShortfall).toBeNull();
    expect(plan.reason).toMatch(/^No station within reach from the start/);
  });
});

describe('a preferred fuel program', () => {
  // 60 gal to buy (as above); A 20 ¢ cheaper than B but off the program.
  const input = (penalty: number) =>
    trip({ routeMiles: 600, stations: [refused('A', 100, 3.4, penalty), accepted('B', 200, 3.6)] });

  it('chooses an off-program stop the penalty does not outweigh, at its true price, and says why', () => {
    // Act: $3.40 + $0.10 = $3.50 in the objective, under B's $3.60.
    const plan = planWithinProgram(input(0.1), 'preferred');

    // Assess: shown prices and costs never include the penalty.
    expect(plan.stops).toHaveLength(1);
    expect(plan.stops[0]).toMatchObject({
      stationId: 'A',
      gallons: 60,
      price: 3.4,
      netPrice: 3.4,
      effectivePrice: 3.4,
      cost: 204,
      effectiveCost: 204,
      inFuelProgram: false,
      offProgramPenalty: 0.1,
    });
    expect(plan.totalCost).toBe(204);
    expect(plan.stops[0]?.reason).toMatch(
      / Off your fuel card program \(penalty \$0\.10\/gal\): chosen because it is \$0\.20\/gal cheaper than Station B, the best accepted stop in reach\.$/,
    );
  });

  it('flips the choice to the accepted stop when the penalty outweighs the saving', () => {
    // Act: $3.40 + $0.25 = $3.65 in the objective, over B's $3.60.
    const plan = planWithinProgram(input(0.25), 'preferred');

    // Assess
    expect(plan.stops.map((stop) => [stop.stationId, stop.inFuelProgram, stop.cost])).toEqual([
      ['B', true, 216],
    ]);
    expect(plan.stops[0]?.reason).not.toMatch(/fuel card program/);
    // The counterfactual is over every station in reach at true prices: ($3.40 + $3.60) / 2.
    expect(plan.stops[0]?.counterfactual).toEqual({ pumpPrice: 3.5, netPrice: 3.5, stationCount: 2 });
  });

  it('gives an exact tie to the accepted stop whatever the route order, even at a penalty of 0', () => {
    // Prepare: two $3.50 stations at the same exit, the off-program one listed first.
    const tie = trip({
      routeMiles: 600,
      stations: [refused('A', 100, 3.5, 0), accepted('B', 100, 3.5)],
    });

    // Act
    const preferred = planWithinProgram(tie, 'preferred');
    const none = planWithinProgram(
      { ...tie, stations: tie.stations.map((s) => ({ ...s, inFuelProgram: null })) },
      'none',
    );

    // Assess: the program decides the tie; without one the route order still does.
    expect(preferred.stops.map((stop) => [stop.stationId, stop.gallons, stop.cost])).toEqual([
      ['B', 60, 210],
    ]);
    expect(preferred.totalCost).toBe(210);
    expect(none.stops.map((stop) => stop.stationId)).toEqual(['A']);
  });

  it('says an off-program stop was not chosen for its price when an accepted one in reach costs no more', () => {
    // Prepare: 60 gal to buy (as above). Off-program A and accepted B, both $3.50 at mile 100, but
    // B lies 10 miles off the route: 4 gal of detour fuel ($14) make A the better buy.
    const plan = planWithinProgram(
      trip({
        routeMiles: 600,
        stations: [refused('A', 100, 3.5, 0), accepted('B', 100, 3.5, { detourMiles: 10 })],
      }),
      'preferred',
    );

    // Assess
    expect(plan.stops.map((stop) => [stop.stationId, stop.gallons])).toEqual([['A', 60]]);
    expect(plan.stops[0]?.reason).toMatch(
      / Off your fuel card program \(penalty \$0\.00\/gal\): not chosen for its price: Station B, the best accepted stop in reach, is the same price\.$/,
    );
  });

  it('says when no accepted stop is in reach of an off-program purchase', () => {
    // Prepare: B (accepted) lies 500 miles out, beyond the 400 miles of range; A is the only stop.
    const plan = planWithinProgram(
      trip({ routeMiles: 600, stations: [refused('A', 100, 3.8, 0.1), accepted('B', 500, 3.2)] }),
      'preferred',
    );

    // Assess
    expect(plan.stops[0]?.stationId).toBe('A');
    expect(plan.stops[0]?.reason).toMatch(
      / Off your fuel card program \(penalty \$0\.10\/gal\): no accepted stop is in reach for this purchase\.$/,
    );
  });
});
