import { type ExamplesFor, exampleId, rejected } from '#shared/api/example.ts';
import { IDS, NOW } from '#shared/api/example-fixtures.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { HealthFigures } from '../domain/checks.ts';
import { scorecardOf } from '../usecases/integration-health.ts';
import { historyOf } from '../usecases/integration-health-history.ts';
import { integrationTestResult } from '../usecases/integration-health-test.ts';
import type { integrationOperations } from './operations.ts';
import { healthHistoryQuery } from './schemas.ts';

const NOW_MS = Date.parse(NOW);
const DAY_MS = 86_400_000;

/**
 * Red River Freight's day, as its counters sum it: 40 trucks, 37 reporting about every 2 minutes,
 * most with a fuel level; three trucks went quiet, two lack an mpg; the webhook receiver timed out
 * on a few deliveries. Built by the scorecard's own code, so the checks and score are the real ones.
 */
const FIGURES: HealthFigures = {
  vehiclesActive: 40,
  vehiclesReporting24h: 37,
  vehiclesWithFuelLevel: 35,
  vehiclesMissingProfile: 2,
  breadcrumbs: 18_472,
  breadcrumbsWithLevel: 17_395,
  rejectedItems: 41,
  gapMsSum: 18_210 * 128_400,
  gapCount: 18_210,
  webhooks: { activeEndpoints: 1, attempts: 1_204, succeeded: 1_187, failingEndpoints: 0 },
  vehiclesWithGuidance: 22,
  fuelingsRecent: 61,
  // 48 card purchases: 39 confirmed by their trucks, 8 around which the trucks sent no levels, one flagged.
  purchases: { reported: 48, verified: 39, unverified: 8, flagged: 1 },
  keyAgeDays: 384,
};

const scorecard = scorecardOf(IDS.fleet, NOW_MS, FIGURES, []);

/** A fleet the example partner holds no grant for. */
const NEW_FLEET = {
  id: exampleId('fleet', '2026-11-18T10:02:44.120000Z', 'lone-star-haulers'),
  name: 'Lone Star Haulers',
};
const history = historyOf(
  IDS.fleet,
  30,
  NOW_MS,
  [3, 2, 1, 0].map((daysAgo) => {
    const at = NOW_MS - daysAgo * DAY_MS;
    const day = scorecardOf(
      IDS.fleet,
      at,
      { ...FIGURES, vehiclesReporting24h: 40 - daysAgo, keyAgeDays: null },
      [],
    );
    return {
      fleetId: IDS.fleet,
      day: new Date(at).toISOString().slice(0, 10),
      checkedAt: day.checked_at,
      score: day.score,
      grade: day.grade,
      checks: Object.fromEntries(day.checks.map((check) => [check.id, check.status])),
      vehiclesActive: day.counts.vehicles_active,
      vehiclesReporting24h: day.counts.vehicles_reporting_24h,
      breadcrumbs24h: day.counts.breadcrumbs_24h,
    };
  }),
);

const testResult = integrationTestResult(scorecard, [
  {
    endpoint_id: IDS.webhook,
    url: 'https://hooks.redriverfreight.example/fleet-fuel',
    event_type: 'guidance.updated',
    delivered: true,
    status_code: 200,
    latency_ms: 184,
    error: null,
  },
]);

export const integrationExamples = {
  getIntegrationHealth: {
    request: { query: { fleet_id: IDS.fleet } },
    responses: { 200: scorecard },
    problem: new ApiError('fleet_scope_mismatch', `The key is not authorized for fleet ${NEW_FLEET.id}.`),
  },
  getIntegrationHealthHistory: {
    request: { query: { fleet_id: IDS.fleet, days: '30' } },
    responses: { 200: history },
    problem: rejected('query', healthHistoryQuery, { days: '91' }),
  },
  testIntegration: {
    request: { query: { fleet_id: IDS.fleet } },
    responses: { 200: testResult },
    problem: new ApiError(
      'fleet_header_required',
      'Name the fleet with the fleet_id query parameter or the SVC-Fleet header.',
    ),
  },
} satisfies ExamplesFor<typeof integrationOperations>;
