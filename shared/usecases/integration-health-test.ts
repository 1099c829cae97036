import type { NextStep } from '../domain/integration-health/score.ts';
import { defaultTestEventType } from '../domain/webhooks/endpoint.ts';
import { logger } from '../platform/observability.ts';
import {
  fleetScorecard,
  type HealthCaller,
  type HealthDeps,
  requiredHealthFleet,
  type Scorecard,
} from './integration-health.ts';
import { type DeliveryDeps, sendTestEvent } from './webhook-delivery.ts';

export type IntegrationTestDeps = HealthDeps & Pick<DeliveryDeps, 'send'>;

/**
 * POST /v1/integration/test: a real signed test event (the webhook test send's, so `test: true`)
 * to each active endpoint of the fleet, one after another, then the checks run now. Like every
 * test send it never disables an endpoint and leaves no delivery record, so it does not move the
 * delivery counters either. The next steps are the scorecard's plus one `high` step per endpoint
 * that did not answer 2xx, ordered by severity.
 */
export async function runIntegrationTest(
  deps: IntegrationTestDeps,
  caller: HealthCaller,
  query: { fleet_id?: string | undefined },
  sandbox: boolean,
) {
  const fleetId = await requiredHealthFleet(deps, caller, query.fleet_id);
  const endpoints = (await deps.endpoints.all({ kind: 'fleet', fleetId })).filter(
    (endpoint) => endpoint.status === 'active',
  );
  const results: EndpointTestResult[] = [];
  for (const endpoint of endpoints) {
    const sent = await sendTestEvent(deps, endpoint, defaultTestEventType(endpoint), sandbox);
    logger.info('Integration test send', { fleetId, endpointId: endpoint.id, ...sent });
    results.push({
      endpoint_id: endpoint.id,
      url: endpoint.url,
      event_type: sent.event.type,
      delivered: sent.delivered,
      status_code: sent.status_code,
      latency_ms: sent.duration_ms,
      error: sent.error,
    });
  }
  const scorecard = await fleetScorecard(deps, fleetId, caller.principal.keyCreatedAt);
  return integrationTestResult(scorecard, results);
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
