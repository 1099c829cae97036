import { describe, expect, it } from 'vitest';
import { type AdmissionCounters, admitUsage } from '#shared/platform/usage-admission.ts';

const CHARGE = { accountId: 'cmp_1', periodId: '2026-11', counter: 'station_results' } as const;

/** A month's counters in memory, with the bounded add's rule: counted only if the total stays within the limit. */
function memoryCounters(used = 0) {
  const calls: unknown[][] = [];
  let total = used;
  const counters: AdmissionCounters<string> = {
    async addUsage(...args) {
      calls.push(['addUsage', ...args]);
      total += args[3] ?? 1;
    },
    async addUsageWithin(accountId, periodId, counter, amount, limit) {
      calls.push(['addUsageWithin', accountId, periodId, counter, amount, limit]);
      if (total + amount > limit) return { admitted: false, used: total };
      total += amount;
      return { admitted: true, used: total };
    },
  };
  return { counters, calls, total: () => total };
}

const noLog = () => {
  throw new Error('nothing should fail here');
};

describe('admitting a charge to a monthly limit', () => {
  it('counts a charge that fits the limit, in one bounded add', async () => {
    const memory = memoryCounters(7);

    const refusal = await admitUsage(memory.counters, { ...CHARGE, amount: 3 }, async () => 10, noLog);

    expect(refusal).toBeNull();
    expect(memory.total()).toBe(10);
    expect(memory.calls).toEqual([['addUsageWithin', 'cmp_1', '2026-11', 'station_results', 3, 10]]);
  });

  it('refuses a charge that would cross the limit whole, counting nothing, with the month’s count', async () => {
    const memory = memoryCounters(8);

    const refusal = await admitUsage(memory.counters, { ...CHARGE, amount: 3 }, async () => 10, noLog);

    expect(refusal).toEqual({ limit: 10, used: 8 });
    expect(memory.total()).toBe(8);
  });

  it('charges one use when no amount is given', async () => {
    const memory = memoryCounters(9);

    expect(await admitUsage(memory.counters, CHARGE, async () => 10, noLog)).toBeNull();
    expect(await admitUsage(memory.counters, CHARGE, async () => 10, noLog)).toEqual({ limit: 10, used: 10 });
    expect(memory.calls.map((call) => call[4])).toEqual([1, 1]);
  });

  it('counts without a bound when the plan has no limit for the counter', async () => {
    const memory = memoryCounters(1_000);

    const one = await admitUsage(memory.counters, CHARGE, async () => undefined, noLog);
    const many = await admitUsage(memory.counters, { ...CHARGE, amount: 5 }, async () => undefined, noLog);

    expect([one, many]).toEqual([null, null]);
    expect(memory.calls).toEqual([
      ['addUsage', 'cmp_1', '2026-11', 'station_results'],
      ['addUsage', 'cmp_1', '2026-11', 'station_results', 5],
    ]);
    expect(memory.total()).toBe(1_006);
  });

  it('fails open when the plan or the counter cannot be read: reported, admitted, nothing counted', async () => {
    const failing: AdmissionCounters<string> = {
      addUsage: async () => {
        throw new Error('throttled');
      },
      addUsageWithin: async () => {
        throw new Error('throttled');
      },
    };
    const reported: string[] = [];
    const report = (error: unknown) => reported.push((error as Error).message);

    const counterDown = await admitUsage(failing, CHARGE, async () => 10, report);
    const unlimitedDown = await admitUsage(failing, CHARGE, async () => undefined, report);
    const planDown = await admitUsage(
      memoryCounters().counters,
      CHARGE,
      async () => {
        throw new Error('plans unavailable');
      },
      report,
    );

    expect([counterDown, unlimitedDown, planDown]).toEqual([null, null, null]);
    expect(reported).toEqual(['throttled', 'throttled', 'plans unavailable']);
  });
});
