import { describe, expect, it } from 'vitest';
import { tripResource } from '#shared/trips/api/serializers.ts';
import type { TripFuelPlan } from '#shared/trips/domain/trip.ts';
import { aTrip } from './fixtures.ts';

const plan = (overrides: Partial<TripFuelPlan>): TripFuelPlan => ({
  status: 'ok',
  reason: '1 stop',
  startFuelPercent: 40,
  minArrivalFuelPercent: 15,
  totalGallons: 120,
  totalCostUsd: 400.68,
  projectedArrivalFuelPercent: 20,
  baseline: null,
  savings: null,
  optimizedAtMs: Date.UTC(2026, 5, 1),
  ...overrides,
});

describe("a trip's fuel plan comparison, replayed as stored", () => {
  it('shows a plan optimized against the retired fill-to-full baseline as it was published', () => {
    // Prepare: the comparison as POST /v1/routes answered it before the counterfactual.
    const baseline = {
      strategy: 'fill_to_full_below_quarter',
      description: 'Fill to full whenever the tank falls below a quarter',
      feasible: true,
      stop_count: 2,
      gallons: 260.4,
      cost_usd: 880.12,
      arrival_fuel_gallons: 150.2,
      arrival_fuel_percent: 50.1,
    };
    const savings = {
      usd: 62.3,
      percent: 13.5,
      basis: 'same_arrival_fuel',
      baseline_cost_usd: 462.98,
      plan_cost_usd: 400.68,
      extra_arrival_fuel_gallons: 120.2,
      fuel_value_usd_per_gallon: 3.47,
      extra_arrival_fuel_value_usd: 417.09,
      description: 'The baseline arrives with 120.2 gal more than the plan.',
    };

    // Act
    const resource = tripResource(aTrip('planned', { fuelPlan: plan({ baseline, savings }) }));

    // Assess
    expect(resource.fuel_plan?.baseline).toEqual(baseline);
    expect(resource.fuel_plan?.savings).toEqual(savings);
  });

  it('shows an object even for a plan stored without one: the infeasible counterfactual, every figure 0', () => {
    // Act
    const resource = tripResource(
      aTrip('planned', { fuelPlan: plan({ status: 'infeasible', taxTreatment: 'ifta' }) }),
    );

    // Assess
    expect(resource.fuel_plan?.baseline).toMatchObject({
      strategy: 'mean_price_in_reach',
      fuel_tax_treatment: 'ifta',
      feasible: false,
      stop_count: 0,
      gallons: 0,
      cost_usd: 0,
      pump_cost_usd: 0,
      arrival_fuel_gallons: 0,
      arrival_fuel_percent: 0,
    });
    expect(resource.fuel_plan?.savings).toBeNull();
  });
});
