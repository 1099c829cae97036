import { describe, expect, it } from 'vitest';
import { FUNCTION_DEFAULTS } from '#lib/function-defaults.ts';
import { workerFunctions } from '#lib/worker-functions.ts';
import { adminRouteList } from '#shared/admin/api/operations.ts';
import { routeList } from '#shared/api/route-table.ts';
import {
  AWS_CALL_LIMITS,
  boundedClientConfig,
  LOCAL_AWS_CALL_LIMITS,
  worstCaseCallMs,
} from '#shared/platform/adapters/aws-call-limits.ts';
import { createDynamoClient } from '#shared/table/dynamo-client.ts';

describe('the bounds of an AWS call', () => {
  it('add up to 7 s at worst: two attempts of 1 s to connect and 2 s to answer, and one backoff', () => {
    expect(worstCaseCallMs(AWS_CALL_LIMITS)).toBe(2 * (1_000 + 2_000) + 1_000);
    expect(worstCaseCallMs(LOCAL_AWS_CALL_LIMITS)).toBe(2 * (1_000 + 4_000) + 1_000);
  });

  it('leave every function time to answer after its slowest call gave up', () => {
    const httpMs = (seconds: number | undefined) =>
      (seconds ?? FUNCTION_DEFAULTS.httpTimeout.toSeconds()) * 1_000;
    for (const route of [...routeList, ...adminRouteList])
      expect(httpMs(route.timeoutSeconds), route.operationId).toBeGreaterThan(worstCaseCallMs());
    for (const worker of workerFunctions)
      expect(worker.timeoutSeconds * 1_000, worker.name).toBeGreaterThan(worstCaseCallMs());
  });

  it('are the options the clients are built with, with a request timeout that throws', async () => {
    expect(boundedClientConfig()).toEqual({
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000, throwOnRequestTimeout: true },
    });
    const deployed = createDynamoClient({ region: 'us-east-1' });
    expect(await deployed.config.maxAttempts()).toBe(2);
    const handler = deployed.config.requestHandler as unknown as {
      configProvider: Promise<Record<string, unknown>>;
    };
    expect(await handler.configProvider).toMatchObject({
      connectionTimeout: 1_000,
      requestTimeout: 2_000,
      throwOnRequestTimeout: true,
    });
    const local = createDynamoClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' });
    const localHandler = local.config.requestHandler as unknown as {
      configProvider: Promise<Record<string, unknown>>;
    };
    expect(await localHandler.configProvider).toMatchObject({ requestTimeout: 4_000 });
  });
});
