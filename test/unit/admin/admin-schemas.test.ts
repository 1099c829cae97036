import { describe, expect, it } from 'vitest';
import {
  createKeyBody,
  ENDPOINT_FAMILIES,
  fuelTaxRateParams,
  planOf,
  putFuelTaxRateBody,
  putPlanBody,
} from '#shared/admin/api/schemas.ts';

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

describe('PUT /admin/v1/fuel-tax-rates/{state}', () => {
  const RATE_MESSAGE = 'must be a number from 0 to 2 USD per gallon, with at most 4 decimals (e.g. 0.2975)';

  it('takes a state code in any case as the upper-case code', () => {
    expect(fuelTaxRateParams.parse({ state: 'pa' })).toEqual({ state: 'PA' });
    expect(fuelTaxRateParams.parse({ state: 'DC' })).toEqual({ state: 'DC' });
  });

  it.each(['PR', 'AK', 'HI', 'Pennsylvania', ''])('refuses %s, naming what a state must be', (state) => {
    const result = fuelTaxRateParams.safeParse({ state });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['state', 'must be one of the 48 contiguous states or DC, as its two-letter code (e.g. PA)'],
    ]);
  });

  it.each([0, 0.2975, 0.741, 2])('accepts a rate of %s USD per gallon', (rate) => {
    expect(putFuelTaxRateBody.parse({ usd_per_gallon: rate, effective_from: '2027-Q1' })).toEqual({
      usd_per_gallon: rate,
      effective_from: '2027-Q1',
    });
  });

  it.each([-0.01, 2.01, 0.12345, '0.74', null])(
    'refuses a rate of %s with the range and precision',
    (rate) => {
      const result = putFuelTaxRateBody.safeParse({ usd_per_gallon: rate, effective_from: '2027-Q1' });
      expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['usd_per_gallon', RATE_MESSAGE],
      ]);
    },
  );

  it.each(['2027-Q5', '2027Q1', '2027-1', 2027])('refuses the quarter %s with its format', (quarter) => {
    const result = putFuelTaxRateBody.safeParse({ usd_per_gallon: 0.5, effective_from: quarter });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['effective_from']);
    if (typeof quarter === 'string') {
      expect(result.error?.issues[0]?.message).toBe('must be a quarter as YYYY-Qn, e.g. 2026-Q1');
    }
  });
});
