import { describe, expect, it } from 'vitest';
import { planFuel } from '#shared/fuel-plan/domain/plan.ts';
import { STALE_PRICE_PENALTY_USD } from '#shared/fuel-plan/domain/policy.ts';
import { station, trip } from './fixtures.ts';

// Every trip here: 200-gal tank, 5 mpg, 20-gal reserve, 20-gal minimum purchase, 40 gal on arrival.

describe('planFuel: where to stop', () => {
  it('says no stop is needed when the fuel on board reaches the destination with the minimum', () => {
    // Prepare: 300 miles burn 60 of 150 gal.
    const input = trip({ routeMiles: 300, currentFuelGallons: 150, stations: [station('A', 100, 3.5)] });

    // Act
    const plan = planFuel(input);

    // Assess
    expect(plan).toMatchObject({
      status: 'no_stop_needed',
      reason: 'No stop needed: the fuel on board reaches Denver with 45% in the tank.',
      stops: [],
      totalCost: 0,
      totalGallons: 0,
      arrivalFuelGallons: 90,
    });
  });

  it('buys everything at the one clearly cheapest station, just enough for the arrival minimum', () => {
    // Prepare: 40 gal on board at mile 300; 700 miles more need 140 gal plus 40 on arrival.
    const input = trip({
      routeMiles: 1000,
      stations: [
        station('A', 200, 3.8),
        station('B', 300, 3.53, { discountPerGallon: 0.13 }),
        station('C', 400, 3.9),
      ],
    });

    // Act
    const plan = planFuel(input);

    // Assess
    expect(plan.status).toBe('ok');
    expect(plan.stops).toEqual([
      {
        stationId: 'B',
        name: 'Station B',
        milesAlongRoute: 300,
        detourMiles: 0,
        gallons: 140,
        netPrice: 3.4,
        price: 3.53,
        discount: 0.13,
        priceIsStale: false,
        cost: 476,
        // No state known: nothing credited, the effective price is the net price.
        state: null,
        stateTax: null,
        effectivePrice: 3.4,
        effectiveCost: 476,
        // A, B and C are within the 400 miles the 80 gal above the reserve reach: pump prices
        // ($3.80 + $3.53 + $3.90) / 3 = $3.743, net ($3.80 + $3.40 + $3.90) / 3 = $3.70.
        counterfactual: { pumpPrice: 3.743, netPrice: 3.7, stationCount: 3 },
        // No fuel program rule: acceptance is not a question, nothing is added to the objective.
        inFuelProgram: null,
        offProgramPenalty: 0,
        reason:
          'Cheapest diesel in the next 700 miles: $3.40 net ($3.53 − $0.13). Buy 140 gal to reach Denver with 20% in the tank.',
      },
    ]);
    expect(plan.totalCost).toBe(476);
    expect(plan.totalGallons).toBe(140);
    expect(plan.arrivalFuelGallons).toBe(40);
  });

  it('lets a stale price lose to a fresh one less than the penalty dearer, and counts real prices', () => {
    // Prepare: B is 5 cents cheaper than A but stale (+10 cents in the objective).
    const stations = (isStale: boolean, stalePrice = 3.4) => [
      station('A', 300, 3.45),
      station('B', 310, stalePrice, { isStale }),
    ];

    // Act
    const fresh = planFuel(trip({ routeMiles: 1000, stations: stations(false) }));
    const stale = planFuel(trip({ routeMiles: 1000, stations: stations(true) }));
    const staleButCheap = planFuel(trip({ routeMiles: 1000, stations: stations(true, 3.3) }));

    // Assess
    expect(STALE_PRICE_PENALTY_USD).toBe(0.1);
    expect(fresh.stops.map((stop) => [stop.stationId, stop.gallons, stop.cost])).toEqual([['B', 140, 476]]);
    expect(stale.stops.map((stop) => [stop.stationId, stop.gallons, stop.cost])).toEqual([['A', 140, 483]]);
    expect(stale.stops[0]?.reason).toMatch(/^Cheapest confirmed price in the next 700 miles: \$3\.45 net/);
    // 15 cents cheaper beats the penalty; the cost is 140 × $3.30, not the penalized $3.40.
    expect(staleButCheap.stops.map((stop) => [stop.stationId, stop.cost])).toEqual([['B', 462]]);
    expect(staleButCheap.totalCost).toBe(462);
    expect(staleButCheap.stops[0]?.reason).toContain(
      '$3.30 net (no fleet discount, price not confirmed recently)',
    );
  });

  it('counts the detour: a cheaper station 10 miles off the route loses, 1 mile off it wins', () => {
    // Prepare: B is 5 cents cheaper than A at the same exit. 10 miles each way burn 4 gal ($13.80)
    // against $7 saved on 140 gal; 1 mile each way burns 0.4 gal.
    const stations = (detourMiles: number) => [
      station('A', 300, 3.5),
      station('B', 300, 3.45, { detourMiles }),
    ];

    // Act
    const far = planFuel(trip({ routeMiles: 1000, stations: stations(10) }));
    const near = planFuel(trip({ routeMiles: 1000, stations: stations(1) }));

    // Assess
    expect(far.stops.map((stop) => [stop.stationId, stop.gallons, stop.cost])).toEqual([['A', 140, 490]]);
    expect(far.stops[0]?.reason).toMatch(/^Cheapest diesel in the next 700 miles once detours are counted: /);
    // The detour fuel is bought there too: 140 + 0.4 gal at $3.45.
    expect(near.stops.map((stop) => [stop.stationId, stop.gallons, stop.cost])).toEqual([
      ['B', 140.4, 484.38],
    ]);
    expect(near.stops[0]?.reason).toContain('$3.45 net (no fleet discount), 1.0 miles off the route.');
    expect(near.arrivalFuelGallons).toBe(40);
  });

  it('buys at least the minimum purchase even when less would do', () => {
    // Prepare: 116 gal on board, 400 miles burn 80: 4 gal short of the 40-gal arrival minimum.
    const input = (minPurchaseGallons?: number) =>
      trip({
        routeMiles: 400,
        currentFuelGallons: 116,
        minPurchaseGallons,
        stations: [station('A', 100, 3.5)],
      });

    // Act
    const withDefault = planFuel(input());
    const withoutMinimum = planFuel(input(0));

    // Assess
    expect(withDefault.stops.map((stop) => [stop.gallons, stop.cost])).toEqual([[20, 70]]);
    expect(withDefault.arrivalFuelGallons).toBe(56);
    expect(withDefault.stops[0]?.reason).toBe(
      'Cheapest diesel in the next 300 miles: $3.50 net (no fleet discount). ' +
        'Buy 20 gal (the minimum purchase) to reach Denver with 28% in the tank.',
    );
    expect(withoutMinimum.stops.map((stop) => [stop.gallons, stop.cost])).toEqual([[4, 14]]);
    expect(withoutMinimum.arrivalFuelGallons).toBe(40);
  });

  it('fills up where fuel is cheap and tops up where it is dear only to reach cheaper fuel', () => {
    // Prepare
    const fillUp = trip({ routeMiles: 1500, stations: [station('A', 100, 3), station('B', 900, 4)] });
    // A is dear, B cheap, C between them 10 cents under A but 10 miles off the route.
    const topUp = trip({
      routeMiles: 1000,
      currentFuelGallons: 50,
      stations: [station('A', 100, 4), station('C', 300, 3.9, { detourMiles: 10 }), station('B', 500, 3)],
    });

    // Act
    const filled = planFuel(fillUp);
    const toppedUp = planFuel(topUp);

    // Assess: at A, 80 gal on board + 120 = a full tank, 40 gal left at B.
    expect(filled.stops.map((stop) => stop.reason)).toEqual([
      'Cheapest diesel in the next 800 miles: $3.00 net (no fleet discount). ' +
        'Fill up: buy 120 gal to reach Station B (mile 900) with 20% in the tank.',
      'Cheapest diesel in the next 600 miles: $4.00 net (no fleet discount). ' +
        'Buy 120 gal to reach Denver with 20% in the tank.',
    ]);
    // At A, 30 gal on board + 70 reach B (400 miles, 80 gal) with the 20-gal reserve.
    expect(toppedUp.stops.map((stop) => [stop.stationId, stop.gallons])).toEqual([
      ['A', 70],
      ['B', 120],
    ]);
    expect(toppedUp.stops[0]?.reason).toBe(
      'Top up to reach cheaper diesel at Station B (mile 500, $3.00 net): $4.00 net (no fleet discount). ' +
        'Buy 70 gal to reach it with 10% in the tank.',
    );
  });

  it('ignores stations behind the truck or past the destination', () => {
    // Prepare
    const input = trip({
      routeMiles: 1000,
      stations: [station('behind', -5, 1), station('B', 300, 3.5), station('beyond', 1200, 1)],
    });

    // Act
    const plan = planFuel(input);

    // Assess
    expect(plan.stops.map((stop) => stop.stationId)).toEqual(['B']);
  });
});

describe('planFuel: when no plan exists', () => {
  it.each([
    [
      'a gap between stations longer than a full tank goes',
      trip({
        routeMiles: 1500,
        currentFuelGallons: 200,
        stations: [station('A', 100, 3), station('B', 1100, 3)],
      }),
      // A full tank above the 20-gal reserve: 180 gal × 5 mpg.
      'No station within reach after Station A (mile 100): next station is 1,000 miles ahead, range is 900 miles.',
    ],
    [
      'the first station out of reach of the fuel on board',
      trip({ routeMiles: 1200, stations: [station('A', 1000, 3)] }),
      'No station within reach from the start: next station is 1,000 miles ahead, range is 400 miles on the current 100 gal.',
    ],
    [
      'the destination too far after the last station',
      trip({ routeMiles: 1200, currentFuelGallons: 200, stations: [station('A', 100, 3)] }),
      // Down to the 40-gal arrival minimum: 160 gal × 5 mpg.
      'Cannot reach Denver with 20% in the tank: it is 1,100 miles after Station A (mile 100), range is 800 miles.',
    ],
    [
      'no station at all',
      trip({ routeMiles: 1000, stations: [] }),
      'Cannot reach Denver with 20% in the tank: it is 1,000 miles away, range is 300 miles on the current 100 gal.',
    ],
    [
      'a truck already below the reserve',
      trip({ routeMiles: 100, currentFuelGallons: 10, stations: [station('A', 10, 3)] }),
      'Current fuel (10 gal) is below the en-route reserve (20 gal).',
    ],
  ])('says which stretch cannot be covered: %s', (_case, input, reason) => {
    // Act
    const plan = planFuel(input);

    // Assess
    expect(plan).toMatchObject({
      status: 'infeasible',
      reason,
      stops: [],
      totalCost: 0,
      totalGallons: 0,
      arrivalFuelGallons: null,
      counterfactual: null,
      savings: null,
    });
  });

  it('names the stations in a gap that cannot be used', () => {
    // Prepare: a full tank at A leaves 30 gal at B's exit (mile 950); B is 60 miles off the route,
    // 12 gal away, which would take the truck under the 20-gal reserve.
    const input = trip({
      routeMiles: 1500,
      currentFuelGallons: 200,
      stations: [station('A', 100, 3), station('B', 950, 3, { detourMiles: 60 }), station('C', 1100, 3)],
    });

    // Act
    const plan = planFuel(input);

    // Assess
    expect(plan.status).toBe('infeasible');
    expect(plan.reason).toBe(
      'No station within reach after Station A (mile 100): next station is 1,000 miles ahead, range is 900 miles. ' +
        '1 station(s) in between cannot be used: too far off the route, or no room for the minimum purchase.',
    );
  });
});

describe('planFuel: the counterfactual and the saving', () => {
  it('compares each purchase with the mean price of the stations in reach for it', () => {
    // Prepare: the top-up trip (200-gal tank, 5 mpg, 20-gal reserve): 70 gal at A ($4.00, mile 100)
    // to reach B ($3.00, mile 500) at the reserve, 120 gal there. The first purchase's reach: 50 gal
    // − the 20-gal reserve = 150 miles: only A. The second's: from A with 100 gal, 400 miles, to mile
    // 500: C (mile 300, 10 miles off: 310) and B itself, mean ($3.90 + $3.00) / 2 = $3.45. A station
    // 15 miles off at mile 490 (505 with its detour) is out of reach.
    const input = trip({
      routeMiles: 1000,
      currentFuelGallons: 50,
      stations: [
        station('A', 100, 4),
        station('C', 300, 3.9, { detourMiles: 10 }),
        station('D', 490, 3.8, { detourMiles: 15 }),
        station('B', 500, 3),
      ],
    });

    // Act
    const plan = planFuel(input);

    // Assess: 70 × $4.00 + 120 × $3.45 = $694.00 against the plan's $640.00: $54.00, 7.8 %.
    expect(plan.stops.map((stop) => [stop.stationId, stop.gallons, stop.counterfactual])).toEqual([
      ['A', 70, { pumpPrice: 4, netPrice: 4, stationCount: 1 }],
      ['B', 120, { pumpPrice: 3.45, netPrice: 3.45, stationCount: 2 }],
    ]);
    expect(plan.counterfactual).toEqual({
      strategy: 'mean_price_in_reach',
      gallons: 190,
      cost: 694,
      pumpCost: 694,
    });
    expect(plan.savings).toEqual({
      basis: 'counterfactual_in_reach',
      taxTreatment: 'ifta',
      counterfactualCost: 694,
      planCost: 640,
      routingUsd: 54,
      cardUsd: 0,
      usd: 54,
      percent: 7.8,
      description:
        "Each stop's gallons bought instead at the mean price of the stations in reach for that purchase, " +
        'net of the fleet discount and of the state tax credited on the IFTA return, cost $694.00; ' +
        "the plan pays $640.00 on the same basis: $54.00 (7.8%) saved by where the plan buys. The fleet's card " +
        'is worth a further $0.00 on this corridor wherever the truck buys, not counted here.',
    });
  });

  it("counts the fleet's card beside the saving, not in it", () => {
    // Prepare: one purchase of 60 gal (100 gal on board, 600 miles, 40 on arrival) with two stations
    // in reach: A $3.60 − $0.10 card, B $3.50 without a discount. The plan buys at A ($3.50 net, the
    // first of two equal prices). Counterfactual: pump mean $3.55, net mean $3.50.
    const input = trip({
      routeMiles: 600,
      stations: [station('A', 100, 3.6, { discountPerGallon: 0.1 }), station('B', 200, 3.5)],
    });

    // Act
    const plan = planFuel(input);

    // Assess: 60 × $3.50 = $210.00 against 60 × $3.50: no routing saving; the card 60 × $0.05 = $3.00.
    expect(plan.stops.map((stop) => [stop.stationId, stop.gallons])).toEqual([['A', 60]]);
    expect(plan.savings).toMatchObject({ counterfactualCost: 210, planCost: 210, usd: 0, cardUsd: 3 });
  });

  it("values a gallon in the tank at the mean effective price of the route's stations, on the plan's basis", () => {
    // Prepare: pump PA $3.759, OH $3.55, OH $3.70; after the IFTA credit $3.018, $3.08, $3.23.
    const stations = [
      station('PA', 100, 3.759, { state: 'PA', stateTax: 0.741 }),
      station('OH-1', 150, 3.55, { state: 'OH', stateTax: 0.47 }),
      station('OH-2', 250, 3.7, { state: 'OH', stateTax: 0.47 }),
    ];

    // Act
    const ifta = planFuel(trip({ routeMiles: 600, stations, taxTreatment: 'ifta' }));
    const pump = planFuel(trip({ routeMiles: 600, stations, taxTreatment: 'pump' }));
    const dry = planFuel(trip({ routeMiles: 1000, currentFuelGallons: 50, stations: [] }));

    // Assess: ($3.018 + $3.08 + $3.23) / 3 = $3.109; ($3.759 + $3.55 + $3.70) / 3 = $3.670; no station: 0.
    expect(ifta.meanStationPrice).toBe(3.11);
    expect(pump.meanStationPrice).toBe(3.67);
    expect(dry.meanStationPrice).toBe(0);
  });

  it('has nothing to compare without a purchase', () => {
    // Prepare: 150 gal covers 400 miles with 70 gal left; an infeasible one has no station at all.
    const noStop = trip({ routeMiles: 400, currentFuelGallons: 150, stations: [station('A', 100, 3)] });
    const infeasible = trip({ routeMiles: 1000, currentFuelGallons: 50, stations: [] });

    // Act
    const none = planFuel(noStop);
    const dry = planFuel(infeasible);

    // Assess
    expect(none.status).toBe('no_stop_needed');
    expect(none.counterfactual).toEqual({
      strategy: 'mean_price_in_reach',
      gallons: 0,
      cost: 0,
      pumpCost: 0,
    });
    expect(none.savings).toBeNull();
    expect(dry.status).toBe('infeasible');
    expect(dry.counterfactual).toBeNull();
    expect(dry.savings).toBeNull();
  });
});
