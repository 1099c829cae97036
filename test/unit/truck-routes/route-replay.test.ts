import { describe, expect, it } from 'vitest';
import { getRoute } from '#shared/truck-routes/usecases/truck-routes.ts';

describe('GET /v1/routes/{id}: a route stored before the counterfactual', () => {
  it('replays with the fill-to-full comparison it was answered with, member for member', async () => {
    // Prepare: the comparison as v1 first published it, stored as the JSON text it was sent as.
    const stored = {
      id: 'rte_01M803F32BRGNDVBX5ZZ5TTA54',
      baseline: {
        strategy: 'fill_to_full_below_quarter',
        description: 'Fill to full whenever the tank falls below a quarter',
        feasible: true,
        stop_count: 1,
        gallons: 180.2,
        cost_usd: 594.48,
        arrival_fuel_gallons: 160.2,
        arrival_fuel_percent: 66.8,
      },
      savings: {
        usd: 4.35,
        percent: 5.9,
        basis: 'same_arrival_fuel',
        baseline_cost_usd: 69.73,
        plan_cost_usd: 65.38,
        extra_arrival_fuel_gallons: 108.6,
        fuel_value_usd_per_gallon: 4.83,
        extra_arrival_fuel_value_usd: 524.75,
        description: 'The baseline arrives with 108.6 gal more than the plan.',
      },
    };
    const json = JSON.stringify(stored);
    const routes = { get: async () => json, put: async () => {} };

    // Act
    const replayed = await getRoute({ routes }, 'flt_1', stored.id);

    // Assess
    expect(JSON.stringify(replayed)).toBe(json);
  });
});
