import { describe, expect, it } from 'vitest';
import { counterfactualOver } from '#shared/fuel-plan/domain/counterfactual.ts';
import { planFuel } from '#shared/fuel-plan/domain/plan.ts';
import type { FuelPlan, FuelPlanInput } from '#shared/fuel-plan/domain/types.ts';
import { station, trip } from './fixtures.ts';

/**
 * Border pairs with the shipped IFTA rates: Pennsylvania 74.1¢ / Ohio 47.0¢, Illinois 74.0¢ /
 * Indiana 61.0¢. One purchase of 60 gal: 100 gal on board (400 miles above the 20-gal reserve at
 * 5 mpg), 600 miles, 40 gal on arrival; every station is in reach.
 */
const borderTrip = (stations: FuelPlanInput['stations'], taxTreatment: 'ifta' | 'pump') =>
  trip({ routeMiles: 600, stations, taxTreatment });

const bought = (plan: FuelPlan) => plan.stops.map((stop) => [stop.stationId, stop.gallons]);

describe('planFuel at the Pennsylvania/Ohio line', () => {
  // Pump (no discount): PA $3.759, OH $3.55, OH $3.70. After the credit: PA $3.018, OH $3.08, OH $3.23.
  const stations = [
    station('PA-Breezewood', 100, 3.759, { state: 'PA', stateTax: 0.741 }),
    station('OH-Youngstown', 150, 3.55, { state: 'OH', stateTax: 0.47 }),
    station('OH-Akron', 250, 3.7, { state: 'OH', stateTax: 0.47 }),
  ];

  it('buys in Pennsylvania under ifta, where the tax-credited price is lower, and says the credit decided it', () => {
    // Act
    const plan = planFuel(borderTrip(stations, 'ifta'));

    // Assess: 60 × $3.018 = $181.08 against the mean ($3.018 + $3.08 + $3.23) / 3 = $3.109:
    // 60 × $3.109 = $186.54, so $5.46 (2.9 %).
    expect(bought(plan)).toEqual([['PA-Breezewood', 60]]);
    const [stop] = plan.stops;
    expect(stop).toMatchObject({
      state: 'PA',
      stateTax: 0.741,
      netPrice: 3.76,
      effectivePrice: 3.018,
      effectiveCost: 181.08,
      counterfactual: { pumpPrice: 3.109, netPrice: 3.109, stationCount: 3 },
    });
    expect(plan.savings).toMatchObject({
      counterfactualCost: 186.54,
      planCost: 181.08,
      usd: 5.46,
      percent: 2.9,
    });
    expect(stop?.reason).toBe(
      'Cheapest diesel in the next 500 miles: $3.02 after tax credit ($3.76 − $0.74 Pennsylvania tax). ' +
        'Buy 60 gal to reach Denver with 20% in the tank. ' +
        'The tax credit decided this stop: $3.759 − $0.741 Pennsylvania credit = $3.018 here, ' +
        'against $3.55 − $0.47 Ohio credit = $3.08 at Station OH-Youngstown, the pick without the credit.',
    );
  });

  it('buys in Ohio under pump, where the pump is cheaper, and says nothing of a credit', () => {
    // Act
    const plan = planFuel(borderTrip(stations, 'pump'));

    // Assess: 60 × $3.55 = $213.00 against ($3.759 + $3.55 + $3.70) / 3 = $3.670: $220.20, so $7.20 (3.3 %).
    expect(bought(plan)).toEqual([['OH-Youngstown', 60]]);
    const [stop] = plan.stops;
    expect(stop).toMatchObject({
      state: 'OH',
      stateTax: 0.47,
      effectivePrice: 3.55,
      counterfactual: { pumpPrice: 3.67, netPrice: 3.67, stationCount: 3 },
    });
    expect(plan.taxTreatment).toBe('pump');
    expect(plan.savings).toMatchObject({ counterfactualCost: 220.2, planCost: 213, usd: 7.2, percent: 3.3 });
    expect(stop?.reason).toBe(
      'Cheapest diesel in the next 450 miles: $3.55 net (no fleet discount). Buy 60 gal to reach Denver with 20% in the tank.',
    );
  });

  it('quotes sums a driver can redo when there is a card on each side: pump − card − credit', () => {
    // Prepare: Pennsylvania $3.859 with a 10¢ card: $3.759 net, $3.018 after its 74.1¢ credit; Ohio
    // $3.70 with a 15¢ card: $3.55 net, $3.08 after its 47.0¢; Akron $3.85 − 15¢ = $3.70, $3.23.
    const carded = [
      station('PA-Breezewood', 100, 3.859, { state: 'PA', stateTax: 0.741, discountPerGallon: 0.1 }),
      station('OH-Youngstown', 150, 3.7, { state: 'OH', stateTax: 0.47, discountPerGallon: 0.15 }),
      station('OH-Akron', 250, 3.85, { state: 'OH', stateTax: 0.47, discountPerGallon: 0.15 }),
    ];

    // Act
    const ifta = planFuel(borderTrip(carded, 'ifta'));
    const pump = planFuel(borderTrip(carded, 'pump'));

    // Assess: without the credit Ohio's $3.55 net beats Pennsylvania's $3.759; with it $3.018 beats $3.08.
    expect(bought(pump)).toEqual([['OH-Youngstown', 60]]);
    expect(bought(ifta)).toEqual([['PA-Breezewood', 60]]);
    expect(ifta.stops[0]?.reason).toBe(
      'Cheapest diesel in the next 500 miles: $3.02 after tax credit ($3.86 − $0.10 − $0.74 Pennsylvania tax). ' +
        'Buy 60 gal to reach Denver with 20% in the tank. ' +
        'The tax credit decided this stop: $3.859 − $0.10 card − $0.741 Pennsylvania credit = $3.018 here, ' +
        'against $3.70 − $0.15 card − $0.47 Ohio credit = $3.08 at Station OH-Youngstown, the pick without the credit.',
    );
  });

  it('costs the pump-price plan more once both are valued after the credit', () => {
    // Act
    const ifta = planFuel(borderTrip(stations, 'ifta'));
    const pump = planFuel(borderTrip(stations, 'pump'));

    // Assess: Ohio's 60 gal cost 60 × $3.08 = $184.80 after the credit, $3.72 more than Pennsylvania's $181.08.
    const afterCredit = (plan: FuelPlan) =>
      plan.stops.reduce(
        (sum, stop) => sum + stop.gallons * (stop.price - stop.discount - (stop.stateTax ?? 0)),
        0,
      );
    expect(afterCredit(pump) - afterCredit(ifta)).toBeCloseTo(3.72, 6);
  });
});

describe('planFuel at the Indiana/Illinois line', () => {
  // Pump: IL $3.69, IN $3.62 (Pilot, 10¢ card: $3.52 net). After the credit: IL $2.95, IN $2.91.
  // Without the card IN would be $3.01 after its credit and lose to IL; with it, it wins both ways.
  const stations = [
    station('IL-Chicago', 100, 3.69, { state: 'IL', stateTax: 0.74 }),
    station('IN-Gary', 150, 3.62, { state: 'IN', stateTax: 0.61 }),
  ];

  it('buys in Illinois under ifta ($2.95 after 74.0¢ against Indiana’s $3.01 after 61.0¢)', () => {
    // Act
    const plan = planFuel(borderTrip(stations, 'ifta'));

    // Assess
    expect(bought(plan)).toEqual([['IL-Chicago', 60]]);
    expect(plan.stops[0]?.effectivePrice).toBe(2.95);
    expect(plan.stops[0]?.reason).toContain(
      'against $3.62 − $0.61 Indiana credit = $3.01 at Station IN-Gary, the pick without the credit.',
    );
  });

  it('buys in Indiana under pump ($3.62 against $3.69)', () => {
    // Act
    const plan = planFuel(borderTrip(stations, 'pump'));

    // Assess
    expect(bought(plan)).toEqual([['IN-Gary', 60]]);
    expect(plan.stops[0]?.effectivePrice).toBe(3.62);
  });

  it('buys in Indiana under both when the card there outweighs the difference in tax', () => {
    // Prepare: the fleet's 10¢ at Indiana: $3.52 net, $2.91 after the credit, below Illinois' $2.95.
    const discounted = [stations[0], { ...stations[1], discountPerGallon: 0.1 }] as FuelPlanInput['stations'];

    // Act
    const ifta = planFuel(borderTrip(discounted, 'ifta'));
    const pump = planFuel(borderTrip(discounted, 'pump'));

    // Assess: no claim that the credit decided it — pump prices choose the same stop.
    expect(bought(ifta)).toEqual([['IN-Gary', 60]]);
    expect(bought(pump)).toEqual([['IN-Gary', 60]]);
    expect(ifta.stops[0]?.reason).not.toContain('tax credit decided');
  });
});

describe('counterfactualOver across a state line', () => {
  it('has equal means with and without the card when no station discounts (a half tenth of a cent rounds alike)', () => {
    // Prepare: Pennsylvania $3.49 − 74.1¢ = $2.749, Illinois $3.05 − 74.0¢ = $2.31; mean $2.5295.
    const stations = [
      { pricePerGallon: 3.49, stateTax: 0.741, effectivePrice: 2.749 },
      { pricePerGallon: 3.05, stateTax: 0.74, effectivePrice: 2.31 },
    ];

    // Act
    const counterfactual = counterfactualOver(stations, 'ifta');

    // Assess: the card is worth nothing here, not −$0.001 a gallon.
    expect(counterfactual.pumpPrice).toBe(counterfactual.netPrice);
    expect(counterfactual.netPrice).toBeCloseTo(2.5295, 3);
  });
});
