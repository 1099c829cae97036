import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  emitUsage,
  emitUsageOf,
  resetUsageMetrics,
  USAGE_METRICS_NAMESPACE,
} from '../../../shared/platform/usage-metrics.ts';

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
        { keyId: 'key_1', partnerId: 'ptr_1', ownFleetId: null, planName: 'growth' } as never,
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
});
