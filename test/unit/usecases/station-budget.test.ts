import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/platform/errors.ts';
import type { Counters } from '../../../shared/store/counters.ts';
import { chargeStationResults } from '../../../shared/usecases/station-budget.ts';
import { COMPANY_ACCOUNT_ID, companyKeyRecord, NOW_MS, principalOf, STARTER_PLAN } from '../fixtures.ts';

const principal = principalOf(companyKeyRecord());

/** A budget of 10 with `used` spent: the bounded add admits what fits, as the store does. */
function deps(used: number) {
  let count = used;
  return {
    plan: async () => ({ ...STARTER_PLAN, stationQueryBudget: 10 }),
    counters: {
      addUsage: vi.fn<Counters['addUsage']>(async () => {}),
      addUsageWithin: vi.fn<Counters['addUsageWithin']>(async (_a, _p, _c, amount, limit) => {
        if (count + amount > limit) return { admitted: false, used: count };
        count += amount;
        return { admitted: true, used: count };
      }),
    },
    now: () => NOW_MS,
  };
}

describe('chargeStationResults', () => {
  it('charges the whole answer in one bounded add against the plan’s budget', async () => {
    const d = deps(0);
    await chargeStationResults(d, principal, 4, 'refuse');
    expect(d.counters.addUsageWithin).toHaveBeenCalledWith(
      COMPANY_ACCOUNT_ID,
      '2026-11',
      'station_results',
      4,
      10,
    );
  });

  it('admits an answer that reaches the budget exactly', async () => {
    const d = deps(6);
    await expect(chargeStationResults(d, principal, 4, 'refuse')).resolves.toBeUndefined();
  });

  it('refuses a query that would cross the budget with 429 station_budget_exceeded, limit and used', async () => {
    const error = await chargeStationResults(deps(7), principal, 4, 'refuse').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'station_budget_exceeded',
      status: 429,
      extensions: { limit: 10, used: 7 },
    });
    expect((error as ApiError).detail).toBe('This answer has 4 stations; 3 of this month’s 10 remain.');
    expect((error as ApiError).hint).toContain('2026-12-01T00:00:00.000000Z');
    expect((error as ApiError).headers['Retry-After']).toBeUndefined();
  });

  it('never refuses guidance: past the budget its stations are counted as overage', async () => {
    const d = deps(9);
    await chargeStationResults(d, principal, 3, 'overage');
    expect(d.counters.addUsage).toHaveBeenCalledWith(
      COMPANY_ACCOUNT_ID,
      '2026-11',
      'station_results_overage',
      3,
    );
  });

  it('charges no overage for guidance that fits the budget', async () => {
    const d = deps(0);
    await chargeStationResults(d, principal, 3, 'overage');
    expect(d.counters.addUsage).not.toHaveBeenCalled();
  });

  it('charges nothing for an empty answer', async () => {
    const d = deps(10);
    await chargeStationResults(d, principal, 0, 'refuse');
    expect(d.counters.addUsageWithin).not.toHaveBeenCalled();
  });

  it('fails open when the counter store fails', async () => {
    const d = deps(0);
    d.counters.addUsageWithin.mockRejectedValue(new Error('throttled'));
    await expect(chargeStationResults(d, principal, 3, 'refuse')).resolves.toBeUndefined();
  });
});
