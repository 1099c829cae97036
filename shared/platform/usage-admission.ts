/** The monthly counters an admission writes (the store's `Counters` is one). */
export interface AdmissionCounters<Counter extends string> {
  addUsage(accountId: string, periodId: string, counter: Counter, amount?: number): Promise<void>;
  addUsageWithin(
    accountId: string,
    periodId: string,
    counter: Counter,
    amount: number,
    limit: number,
  ): Promise<{ admitted: boolean; used: number }>;
}

export interface UsageCharge<Counter extends string> {
  accountId: string;
  periodId: string;
  counter: Counter;
  /** How much the charge counts; one use when absent. */
  amount?: number;
}

/** A refused charge: the limit it would have crossed and the month's count, which it left as it was. */
export interface UsageRefusal {
  limit: number;
  used: number;
}

/**
 * Admits a charge to a monthly limit (docs/limits.md), the one rule behind the endpoint quotas and
 * the station budget: with a limit, the charge is counted only if the month's total stays within
 * it, in one conditional write, so concurrent callers never overshoot and a refused charge counts
 * nothing; without one (`limitOf` answers undefined) it is counted unbounded, for GET /v1/me. A
 * failing plan read or counter store fails open: `unavailable` logs it and the charge passes
 * uncounted, since refusing every call because a counter is unreachable would turn a partial outage
 * into a full one. Returns the refusal, or null when admitted.
 */
export async function admitUsage<Counter extends string>(
  counters: AdmissionCounters<Counter>,
  charge: UsageCharge<Counter>,
  limitOf: () => Promise<number | undefined>,
  unavailable: (error: unknown) => void,
): Promise<UsageRefusal | null> {
  const { accountId, periodId, counter, amount } = charge;
  try {
    const limit = await limitOf();
    if (limit === undefined) {
      await (amount === undefined
        ? counters.addUsage(accountId, periodId, counter)
        : counters.addUsage(accountId, periodId, counter, amount));
      return null;
    }
    const { admitted, used } = await counters.addUsageWithin(
      accountId,
      periodId,
      counter,
      amount ?? 1,
      limit,
    );
    return admitted ? null : { limit, used };
  } catch (error) {
    unavailable(error);
    return null;
  }
}
