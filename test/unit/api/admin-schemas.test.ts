import { describe, expect, it } from 'vitest';
import { createKeyBody, ENDPOINT_FAMILIES, planOf, putPlanBody } from '../../../shared/api/schemas/admin.ts';

const plan = {
  rate_limit_per_min: 600,
  monthly_quota: { stations: 1000 },
  station_query_budget: 5000,
  max_station_results: 25,
};

describe('PUT /admin/v1/plans body', () => {
  it('accepts a plan and maps it onto the domain (max_station_results is the price-query cap)', () => {
    const body = putPlanBody.parse({
      ...plan,
      enumeration_guard: { max_distinct_cells: 600, far_share: 0.5 },
    });
    expect(planOf('growth', body)).toEqual({
      name: 'growth',
      rateLimitPerMin: 600,
      monthlyQuota: { stations: 1000 },
      stationQueryBudget: 5000,
      priceQueryCap: 25,
      enumerationGuard: { maxDistinctCells: 600, farShare: 0.5 },
    });
    expect(planOf('plain', putPlanBody.parse(plan))).not.toHaveProperty('enumerationGuard');
  });

  it.each([
    ['max_station_results', { max_station_results: 0 }],
    ['max_station_results', { max_station_results: 26 }],
    ['rate_limit_per_min', { rate_limit_per_min: 1.5 }],
    ['station_query_budget', { station_query_budget: -1 }],
    // An unknown family is zod's unrecognized key on monthly_quota (the 422 names monthly_quota.teleport).
    ['monthly_quota', { monthly_quota: { teleport: 1 } }],
    ['enumeration_guard.max_distinct_cells', { enumeration_guard: { max_distinct_cells: 601 } }],
    ['enumeration_guard.far_share', { enumeration_guard: { far_share: 1.5 } }],
  ])('refuses a bad %s', (field, change) => {
    const result = putPlanBody.safeParse({ ...plan, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });

  it('knows every endpoint family once', () => {
    expect(new Set(ENDPOINT_FAMILIES).size).toBe(ENDPOINT_FAMILIES.length);
    expect(ENDPOINT_FAMILIES).toEqual(expect.arrayContaining(['stations', 'locations', 'sandbox']));
  });
});

describe('POST /admin/v1/keys body', () => {
  const key = { plan: 'growth', scopes: ['vehicles:manage'], name: 'k', mode: 'live' };

  it('needs exactly the owner type’s account id', () => {
    expect(
      createKeyBody.safeParse({ ...key, owner_type: 'partner', partner_id: 'ptr_01JD7ZK3M4N5P6Q7R8S9T0V1W2' })
        .success,
    ).toBe(true);
    const missing = createKeyBody.safeParse({ ...key, owner_type: 'company' });
    expect(missing.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['company_id']);
    const both = createKeyBody.safeParse({
      ...key,
      owner_type: 'company',
      company_id: 'cmp_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
      partner_id: 'ptr_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
    });
    expect(both.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['partner_id']);
  });
});
