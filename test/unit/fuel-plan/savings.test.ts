import { describe, expect, it } from 'vitest';
import { counterfactualOver } from '#shared/fuel-plan/domain/counterfactual.ts';
import { planCounterfactual, planSavings } from '#shared/fuel-plan/domain/savings.ts';

/** A purchase as the comparison reads it: gallons, its effective cost and its counterfactual. */
const purchase = (gallons: number, effectiveCost: number, pumpPrice: number, netPrice: number) => ({
  gallons,
  effectiveCost,
  counterfactual: { pumpPrice, netPrice, stationCount: 4 },
});

describe('planCounterfactual: the same gallons at the counterfactual prices', () => {
  it('rounds each stop to the cent before summing, so the published sum adds up', () => {
    // Arrange: 33.3 gal × $3.217 = $107.1261 → $107.13; 47.7 gal × $3.199 = $152.5923 → $152.59.
    const stops = [purchase(33.3, 0, 3.349, 3.217), purchase(47.7, 0, 3.301, 3.199)];

    // Act
    const counterfactual = planCounterfactual(stops);

    // Assess: pump 33.3 × $3.349 = $111.5217 → $111.52, 47.7 × $3.301 = $157.4577 → $157.46.
    expect(counterfactual).toEqual({
      strategy: 'mean_price_in_reach',
      gallons: 81,
      cost: 259.72,
      pumpCost: 268.98,
    });
  });
});

describe('planSavings: the routing saving, the card beside it', () => {
  it('is the counterfactual cost less the effective cost, as a share of the counterfactual', () => {
    // Arrange: $259.72 counterfactual against $251.08 paid (effective): $8.64, 3.3 %.
    const stops = [purchase(33.3, 104.43, 3.349, 3.217), purchase(47.7, 146.65, 3.301, 3.199)];
    const counterfactual = planCounterfactual(stops);

    // Act
    const savings = planSavings(stops, counterfactual, 'pump');

    // Assess: the card: $268.98 − $259.72 = $9.26.
    expect(savings).toMatchObject({
      basis: 'counterfactual_in_reach',
      taxTreatment: 'pump',
      counterfactualCost: 259.72,
      planCost: 251.08,
      routingUsd: 8.64,
      cardUsd: 9.26,
      usd: 8.64,
      percent: 3.3,
    });
    expect(savings?.description).toContain('net of the fleet discount (pump prices, no tax credit)');
    expect(savings?.description).toContain('$8.64 (3.3%) saved by where the plan buys');
  });

  it('says when the plan costs more than the counterfactual', () => {
    // Arrange: 50 gal at $3.10 effective against a $3.05 mean: $2.50 more.
    const stops = [purchase(50, 155, 3.2, 3.05)];

    // Act
    const savings = planSavings(stops, planCounterfactual(stops), 'ifta');

    // Assess: −$2.50 of $152.50 is −1.6 %.
    expect(savings).toMatchObject({ usd: -2.5, percent: -1.6 });
    expect(savings?.description).toContain('the plan costs $2.50 (1.6%) more');
  });

  it('is null without a purchase', () => {
    expect(planSavings([], planCounterfactual([]), 'ifta')).toBeNull();
  });
});

describe('counterfactualOver: the means of the stations in reach', () => {
  it('gives equal pump and net means when no station has a discount, whatever the float sums do', () => {
    // PA 3.59 − 0.741 = 2.849 and IN 3.56 − 0.61 = 2.950: the mean is 2.8995, which float sums put
    // on either side of the half; both means must land on the same tenth of a cent.
    const stations = [
      { pricePerGallon: 3.59, effectivePrice: 2.849, stateTax: 0.741 },
      { pricePerGallon: 3.56, effectivePrice: 2.95, stateTax: 0.61 },
    ];

    const counterfactual = counterfactualOver(stations, 'ifta');

    expect(counterfactual).toEqual({ pumpPrice: 2.9, netPrice: 2.9, stationCount: 2 });
  });

  it('keeps the card part: the pump mean is above the net mean by the mean discount', () => {
    const stations = [
      { pricePerGallon: 3.5, effectivePrice: 3.4, stateTax: 0.2 },
      { pricePerGallon: 3.7, effectivePrice: 3.6, stateTax: 0.3 },
    ];

    expect(counterfactualOver(stations, 'pump')).toEqual({ pumpPrice: 3.6, netPrice: 3.5, stationCount: 2 });
    expect(
      counterfactualOver([{ ...stations[0], effectivePrice: 3.2 } as (typeof stations)[0]], 'ifta'),
    ).toEqual({
      pumpPrice: 3.3,
      netPrice: 3.2,
      stationCount: 1,
    });
  });
});
