import { logger } from '#shared/platform/observability.ts';
import { defaultTestEventType, type WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import { type DeliveryDeps, sendTestEvent } from '#shared/webhooks/usecases/webhook-delivery.ts';
import type { NextStep } from '../domain/score.ts';
import {
  fleetScorecard,
  type HealthCaller,
  type HealthDeps,
  requiredHealthFleet,
  type Scorecard,
} from './integration-health.ts';

export type IntegrationTestDeps = HealthDeps & Pick<DeliveryDeps, 'send'>;

/** Test sends in flight at once: a fleet with many endpoints is not sent to one after another. */
export const TEST_SENDS_AT_ONCE = 8;

/**
 * The whole test's budget for the sends: an endpoint that has not answered by then is reported as
 * such (each send has its own 5 s timeout, so a handful of slow receivers cannot hold the request
 * past API Gateway's limit).
 */
export const TEST_DEADLINE_MS = 6_000;

/**
 * POST /v1/integration/test: a real signed test event (the webhook test send's, so `test: true`)
 * to each active endpoint of the fleet, {@link TEST_SENDS_AT_ONCE} at a time within
 * {@link TEST_DEADLINE_MS}, while the checks run now. Like every test send it never disables an
 * endpoint and leaves no delivery record, so it does not move the delivery counters either. The
 * next steps are the scorecard's plus one `high` step per endpoint that did not answer 2xx, ordered
 * by severity.
 */
export async function runIntegrationTest(
  deps: IntegrationTestDeps,
  caller: HealthCaller,
  query: { fleet_id?: string | undefined },
  sandbox: boolean,
  deadlineMs = TEST_DEADLINE_MS,
) {
  const fleetId = await requiredHealthFleet(deps, caller, query.fleet_id);
  const endpoints = (await deps.endpoints.all({ kind: 'fleet', fleetId })).filter(
    (endpoint) => endpoint.status === 'active',
  );
  const [results, scorecard] = await Promise.all([
    testSends(deps, fleetId, endpoints, sandbox, deadlineMs),
    fleetScorecard(deps, fleetId, caller.principal.keyCreatedAt),
  ]);
  return integrationTestResult(scorecard, results);
}

/** Every endpoint's result, in the endpoints' order; those the deadline caught say so. */
async function testSends(
  deps: IntegrationTestDeps,
  fleetId: string,
  endpoints: readonly WebhookEndpoint[],
  sandbox: boolean,
  deadlineMs: number,
): Promise<EndpointTestResult[]> {
  const results = new Map<number, EndpointTestResult>();
  const started = new Set<number>();
  let next = 0;
  let expired = false;
  const sender = async () => {
    while (!expired && next < endpoints.length) {
      const index = next++;
      const endpoint = endpoints[index] as WebhookEndpoint;
      started.add(index);
      const sent = await sendTestEvent(deps, endpoint, defaultTestEventType(endpoint), sandbox);
      logger.info('Integration test send', { fleetId, endpointId: endpoint.id, ...sent });
      results.set(index, {
        endpoint_id: endpoint.id,
        url: endpoint.url,
        event_type: sent.event.type,
        delivered: sent.delivered,
        status_code: sent.status_code,
        latency_ms: sent.duration_ms,
        error: sent.error,
      });
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deadlineMs);
  });
  const senders = Array.from({ length: Math.min(TEST_SENDS_AT_ONCE, endpoints.length) }, sender);
  await Promise.race([Promise.all(senders), deadline]);
  expired = true;
  clearTimeout(timer);
  const seconds = deadlineMs / 1000;
  return endpoints.map(
    (endpoint, index) =>
      results.get(index) ?? {
        endpoint_id: endpoint.id,
        url: endpoint.url,
        event_type: defaultTestEventType(endpoint),
        delivered: false,
        status_code: null,
        latency_ms: deadlineMs,
        error: started.has(index)
          ? `no answer within the integration test's ${seconds} s`
          : `not sent: the integration test's ${seconds} s ran out before its turn`,
      },
  );
}

export interface EndpointTestResult {
  endpoint_id: string;
  url: string;
  event_type: string;
  delivered: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/**
 * The answer: the scorecard's next steps plus one `high` step per endpoint that did not answer
 * 2xx, those leading (the sort is stable, so the scorecard's own order is kept).
 */
export function integrationTestResult(scorecard: Scorecard, endpoints: readonly EndpointTestResult[]) {
  const endpointSteps: NextStep[] = endpoints
    .filter((result) => !result.delivered)
    .map((result) => ({
      severity: 'high',
      check_id: 'webhook_delivery',
      action: `Endpoint ${result.endpoint_id} (${result.url}) did not answer 2xx to the test event: ${result.error}. Fix the receiver, then run the test again.`,
    }));
  const steps = [...endpointSteps, ...scorecard.next_steps];
  steps.sort((a, b) => Number(a.severity === 'medium') - Number(b.severity === 'medium'));
  return { scorecard, endpoints: [...endpoints], next_steps: steps };
}
