import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chargeStationResults } from '#shared/plans/usecases/station-budget.ts';
import { enforceQuota } from '#shared/platform/http/limits.ts';
import {
  emitPriceFeedRefused,
  emitProblem,
  emitUsage,
  emitUsageOf,
  resetUsageMetrics,
  USAGE_METRICS_NAMESPACE,
} from '#shared/platform/usage-metrics.ts';

/** The EMF documents written to stdout while `run` runs. */
function captureEmf(run: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.includes('_aws'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('usage metrics for finance (CloudWatch EMF)', () => {
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_DEV', '');
    vi.stubEnv('STAGE', 'sandbox');
    resetUsageMetrics();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    resetUsageMetrics();
  });

  it('writes one data point per call: the count, by stage and family, with account and plan as metadata', () => {
    const [document, ...rest] = captureEmf(() =>
      emitUsageOf(
        {
          keyId: 'key_1',
          accountId: 'ptr_1',
          partnerId: 'ptr_1',
          ownFleetId: null,
          planName: 'growth',
        } as never,
        'ApiCalls',
        'locations',
        1,
      ),
    );
    expect(rest).toEqual([]);
    expect(document).toMatchObject({ stage: 'sandbox', family: 'locations', ApiCalls: 1, plan: 'growth' });
    expect(document?.account_id).toBeTruthy();
    const aws = document?._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
    expect(aws.CloudWatchMetrics[0]?.Namespace).toBe(USAGE_METRICS_NAMESPACE);
    // Never a dimension per account: that would be a custom metric per customer.
    expect(aws.CloudWatchMetrics[0]?.Dimensions.flat()).not.toContain('account_id');
    expect(aws.CloudWatchMetrics[0]?.Dimensions.flat()).toEqual(expect.arrayContaining(['stage', 'family']));
  });

  it('counts station results in bulk, skips empty counts, and stays silent when disabled', () => {
    const record = {
      metric: 'StationResults',
      stage: 'prod',
      family: 'stations',
      accountId: 'flt_1',
      plan: 'starter',
    } as const;
    expect(captureEmf(() => emitUsage({ ...record, count: 12 }))[0]).toMatchObject({ StationResults: 12 });
    expect(captureEmf(() => emitUsage({ ...record, count: 0 }))).toEqual([]);
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    resetUsageMetrics();
    expect(captureEmf(() => emitUsage({ ...record, count: 3 }))).toEqual([]);
  });

  it('carries the acting fleet as metadata: a partner’s when passed, a company key’s own otherwise', () => {
    const partner = {
      keyId: 'key_1',
      accountId: 'ptr_1',
      partnerId: 'ptr_1',
      ownFleetId: null,
      planName: 'growth',
    } as never;
    const company = {
      keyId: 'key_2',
      accountId: 'cmp_own',
      partnerId: null,
      ownFleetId: 'flt_own',
      planName: 'growth',
    } as never;

    const [forPartner] = captureEmf(() => emitUsageOf(partner, 'StationResults', 'stations', 4, 'flt_9'));
    const [forCompany] = captureEmf(() => emitUsageOf(company, 'ApiCalls', 'stations', 1));
    const [unknownFleet] = captureEmf(() => emitUsageOf(partner, 'ApiCalls', 'stations', 1));

    expect(forPartner).toMatchObject({ fleet_id: 'flt_9', account_id: 'ptr_1' });
    expect(forCompany).toMatchObject({ fleet_id: 'flt_own', account_id: 'cmp_own' });
    expect(unknownFleet).not.toHaveProperty('fleet_id');
  });

  it('counts a partner’s admitted call under the fleet it acts on (enforceQuota)', async () => {
    const partner = {
      keyId: 'key_1',
      accountId: 'ptr_1',
      partnerId: 'ptr_1',
      ownFleetId: null,
      planName: 'growth',
    } as never;
    const deps = {
      plan: async () => null,
      counters: { addUsage: async () => {}, addUsageWithin: async () => ({ admitted: true, used: 1 }) },
      now: () => Date.parse('2026-11-23T12:00:00Z'),
    } as never;
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await enforceQuota(partner, 'vehicles', deps, 'flt_9');
    } finally {
      spy.mockRestore();
    }
    const [record] = lines.filter((line) => line.includes('_aws')).map((line) => JSON.parse(line));
    expect(record).toMatchObject({ ApiCalls: 1, account_id: 'ptr_1', fleet_id: 'flt_9' });
  });

  it('emits guidance overage as StationResultsOverage, apart from the budget’s StationResults', async () => {
    // Arrange: a budget of 10, 9 already used.
    const company = { keyId: 'key_2', partnerId: null, ownFleetId: 'flt_own', planName: 'growth' } as never;
    let used = 9;
    const deps = {
      plan: async () => ({ stationQueryBudget: 10 }),
      counters: {
        addUsage: async () => {},
        addUsageWithin: async (_a: string, _p: string, _c: string, amount: number, limit: number) => {
          if (used + amount > limit) return { admitted: false, used };
          used += amount;
          return { admitted: true, used };
        },
      },
      now: () => Date.parse('2026-11-23T12:00:00Z'),
    } as never;
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });

    // Act: guidance with 3 stops (over the budget), then guidance with 1 (fits).
    try {
      await chargeStationResults(deps, company, 3, 'overage');
      await chargeStationResults(deps, company, 1, 'overage');
    } finally {
      spy.mockRestore();
    }

    // Assess
    const records = lines.filter((line) => line.includes('_aws')).map((line) => JSON.parse(line));
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ StationResultsOverage: 3, family: 'stations', fleet_id: 'flt_own' });
    expect(records[0]).not.toHaveProperty('StationResults');
    expect(records[1]).toMatchObject({ StationResults: 1 });
    expect(records[1]).not.toHaveProperty('StationResultsOverage');
  });

  it('counts each problem response by stage and code, never by account', () => {
    // As deployed (lib/service-environment.ts): the AuthUnavailable alarm names this service.
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'fleet-fuel-guidance');
    const [document, ...rest] = captureEmf(() => emitProblem('quota_exceeded', 429));

    expect(rest).toEqual([]);
    expect(document).toMatchObject({
      stage: 'sandbox',
      code: 'quota_exceeded',
      ProblemResponses: 1,
      status: '429',
    });
    expect(document?.service).toBe('fleet-fuel-guidance');
    const aws = document?._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
    expect(aws.CloudWatchMetrics[0]?.Namespace).toBe(USAGE_METRICS_NAMESPACE);
    // Exactly one dimension set, the one the AuthUnavailable alarm reads (test/cdk/alarms.test.ts):
    // an alarm matches a metric only on its full set of dimensions.
    expect(aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'stage', 'code']]);
  });

  it('counts a refused price file by stage, in the same namespace', () => {
    const [document, ...rest] = captureEmf(() => emitPriceFeedRefused());

    expect(rest).toEqual([]);
    expect(document).toMatchObject({ stage: 'sandbox', PriceFeedImportsRefused: 1 });
    const aws = document?._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
    expect(aws.CloudWatchMetrics[0]?.Namespace).toBe(USAGE_METRICS_NAMESPACE);
    // Powertools adds its service name; nothing else splits the count.
    expect(aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'stage']]);
  });
});
