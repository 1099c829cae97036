import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  healthHistoryQuery,
  healthHistorySchema,
  healthQuery,
  healthResponse,
  integrationTestQuery,
  integrationTestSchema,
} from './schemas.ts';

/**
 * Partner keys name the fleet with `fleet_id` or SVC-Fleet, so the chain lets them through without
 * the header (`fleetOrPartner`) and the use case checks the grant of a `fleet_id`.
 */
const integrationOperation = routeGroup({
  tags: ['Integration'],
  handlers: 'functions/http/integration-health',
  access: 'fleetOrPartner',
  scope: 'usage:read',
  family: 'integration',
  role: 'api',
  idempotent: false,
});

export const getIntegrationHealthOperation = /* @__PURE__ */ integrationOperation({
  operationId: 'getIntegrationHealth',
  route: 'GET /v1/integration/health',
  summary: 'The integration health scorecard, or a partner’s per-fleet summaries',
  description:
    'A company key gets its own fleet’s scorecard. A partner key gets the fleet named by `fleet_id` or SVC-Fleet, or, naming neither, a page of per-fleet summaries over its granted fleets (`cursor`, `limit`). ' +
    'Checks, targets and the score are described in docs/integration-health.md; every figure comes from maintained counters of the last 24 hours.',
  request: { query: healthQuery },
  responses: [{ status: 200, description: 'The scorecard, or the summaries', schema: healthResponse }],
  errors: ['fleet_scope_mismatch'],
});

export const getIntegrationHealthHistoryOperation = /* @__PURE__ */ integrationOperation({
  operationId: 'getIntegrationHealthHistory',
  route: 'GET /v1/integration/health/history',
  summary: 'The health trend from persisted daily snapshots',
  description:
    '`days` defaults to 30, at most 90. A daily job snapshots every fleet with activity; days without a snapshot are absent. Partner keys name the fleet with `fleet_id` or SVC-Fleet.',
  request: { query: healthHistoryQuery },
  responses: [{ status: 200, description: 'The snapshots, oldest first', schema: healthHistorySchema }],
  errors: ['fleet_scope_mismatch', 'fleet_header_required'],
});

export const testIntegrationOperation = /* @__PURE__ */ integrationOperation({
  operationId: 'testIntegration',
  route: 'POST /v1/integration/test',
  summary: 'Run the checks now and send a signed test event to each active webhook endpoint',
  description:
    'Each active endpoint of the fleet gets the webhook test send (`test: true`, never disables it, no delivery record); the answer carries each endpoint’s status code, latency and error, the scorecard, and the next steps ordered by severity.',
  request: { query: integrationTestQuery },
  responses: [
    { status: 200, description: 'The endpoints’ answers and the scorecard', schema: integrationTestSchema },
  ],
  errors: ['fleet_scope_mismatch', 'fleet_header_required'],
});

export const integrationOperations = {
  getIntegrationHealth: getIntegrationHealthOperation,
  getIntegrationHealthHistory: getIntegrationHealthHistoryOperation,
  testIntegration: testIntegrationOperation,
} satisfies Record<string, RouteDefinition>;
