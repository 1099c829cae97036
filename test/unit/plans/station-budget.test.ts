import { describe, expect, it, vi } from 'vitest';
import type { Counters } from '#shared/plans/store/counters.ts';
import {
  chargeReplannedStations,
  chargeStationResults,
  fleetBillingAccount,
} from '#shared/plans/usecases/station-budget.ts';
import { ApiError } from '#shared/platform/errors.ts';
import {
  COMPANY_ACCOUNT_ID,
  COMPANY_FLEET_ID,
  companyKeyRecord,
  NOW_MS,
  principalOf,
  STARTER_PLAN,
} from '../fixtures.ts';

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

describe('chargeReplannedStations (the guidance worker’s re-plans)', () => {
  /** The counters of one account with a budget of 10 recorded by an earlier charge, `used` spent. */
  function workerDeps(used: number, recorded: number | null = 10, overage = 0) {
    const d = deps(used);
    return {
      ...d,
      counters: {
        ...d.counters,
        recordedLimit: vi.fn<Counters['recordedLimit']>(async () => recorded),
        readUsage: vi.fn<Counters['readUsage']>(async () => ({ station_results_overage: overage })),
      },
    };
  }
  const companyFleet = { accountId: COMPANY_ACCOUNT_ID, fleetId: COMPANY_FLEET_ID };

  it('charges newly recommended stations to the budget recorded this month when they fit', async () => {
    const d = workerDeps(6);
    await chargeReplannedStations(d, companyFleet, 2);
    expect(d.counters.addUsageWithin).toHaveBeenCalledWith(
      COMPANY_ACCOUNT_ID,
      '2026-11',
      'station_results',
      2,
      10,
    );
    expect(d.counters.addUsage).not.toHaveBeenCalled();
  });

  it('counts them as overage past the budget, never refusing', async () => {
    const d = workerDeps(9);
    await expect(chargeReplannedStations(d, companyFleet, 2)).resolves.toBeUndefined();
    expect(d.counters.addUsage).toHaveBeenCalledWith(
      COMPANY_ACCOUNT_ID,
      '2026-11',
      'station_results_overage',
      2,
    );
  });

  it('bills a partner’s fleet to the partner', async () => {
    const companyOf = vi.fn(async () => 'cmp_never');
    const account = await fleetBillingAccount('flt_served', { partnerId: 'ptr_1' }, companyOf);
    expect(account).toBe('ptr_1');
    expect(companyOf).not.toHaveBeenCalled();
  });

  it('bills a company’s fleet to the company the control plane maps it to, an unknown fleet to itself', async () => {
    expect(
      await fleetBillingAccount(COMPANY_FLEET_ID, { partnerId: null }, async () => COMPANY_ACCOUNT_ID),
    ).toBe(COMPANY_ACCOUNT_ID);
    expect(await fleetBillingAccount('flt_lost', null, async () => null)).toBe('flt_lost');
  });

  it('with no budget recorded this month: to the budget’s count, or to overage once guidance went there', async () => {
    const fresh = workerDeps(0, null);
    await chargeReplannedStations(fresh, companyFleet, 3);
    expect(fresh.counters.addUsage).toHaveBeenCalledWith(COMPANY_ACCOUNT_ID, '2026-11', 'station_results', 3);

    const spent = workerDeps(0, null, 4);
    await chargeReplannedStations(spent, companyFleet, 3);
    expect(spent.counters.addUsage).toHaveBeenCalledWith(
      COMPANY_ACCOUNT_ID,
      '2026-11',
      'station_results_overage',
      3,
    );
    expect(spent.counters.addUsage).toHaveBeenCalledTimes(1);
  });

  it('charges nothing for a re-plan that recommends nothing new, and never throws', async () => {
    const d = workerDeps(0);
    await chargeReplannedStations(d, companyFleet, 0);
    expect(d.counters.recordedLimit).not.toHaveBeenCalled();

    d.counters.recordedLimit.mockRejectedValue(new Error('throttled'));
    await expect(chargeReplannedStations(d, companyFleet, 2)).resolves.toBeUndefined();
  });
});
