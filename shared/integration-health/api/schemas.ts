import * as z from 'zod/mini';
import { nullableNumber, pageOf, pageQuery, publicId, timestamp } from '#shared/api/common-schemas.ts';
import { queryInteger } from '#shared/api/query-numbers.ts';
import { CHECKS } from '../domain/checks.ts';
import { HEALTH_HISTORY_DAYS } from '../domain/history.ts';

const checkIds = CHECKS.map((check) => check.id) as [string, ...string[]];
const checkId = z.enum(checkIds).check(z.meta({ description: 'A check id (docs/integration-health.md)' }));
const checkStatus = z.enum(['pass', 'warn', 'fail']);
const grade = z
  .enum(['A', 'B', 'C', 'D', 'F'])
  .check(z.meta({ description: 'A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below' }));

const fleetIdQuery = z.optional(publicId('fleet')).check(
  z.meta({
    description:
      'The fleet to score, for partner keys (or use the SVC-Fleet header; both must agree). A fleet not granted to the key is 403 fleet_scope_mismatch. Company keys may leave it out or name their own fleet.',
  }),
);

export const healthQuery = z.object({ fleet_id: fleetIdQuery, ...pageQuery });
export const healthHistoryQuery = z.object({
  fleet_id: fleetIdQuery,
  days: z
    ._default(queryInteger(HEALTH_HISTORY_DAYS.min, HEALTH_HISTORY_DAYS.max), HEALTH_HISTORY_DAYS.default)
    .check(
      z.meta({
        description: `UTC days back from today, today included; default ${HEALTH_HISTORY_DAYS.default}, at most ${HEALTH_HISTORY_DAYS.max}.`,
      }),
    ),
});
export const integrationTestQuery = z.object({ fleet_id: fleetIdQuery });

const nextStep = z.object({
  severity: z
    .enum(['high', 'medium'])
    .check(z.meta({ description: 'high: a failed check; medium: a warning' })),
  check_id: checkId,
  action: z.string(),
});

export const scorecardSchema = z
  .object({
    fleet_id: z.string(),
    score: z.number().check(z.int(), z.minimum(0), z.maximum(100)),
    grade,
    checked_at: timestamp,
    window: z
      .object({ from: timestamp, to: timestamp, hours: z.number().check(z.int()) })
      .check(z.meta({ description: 'The current UTC hour and the 23 before it: what the counters cover' })),
    checks: z.array(
      z.object({
        id: checkId,
        title: z.string(),
        status: checkStatus,
        observed: z.string(),
        target: z.string(),
        detail: z.string(),
      }),
    ),
    counts: z.object({
      vehicles_active: z.number().check(z.int()),
      vehicles_reporting_24h: z.number().check(z.int()),
      vehicles_with_fuel_level: z.number().check(z.int()),
      vehicles_missing_tank_or_mpg: z.number().check(z.int()),
      breadcrumbs_24h: z.number().check(z.int()),
      rejected_items_24h: z.number().check(z.int()),
      fuelings_reported_7d: z
        .number()
        .check(
          z.int(),
          z.meta({ description: 'Card purchases reported (POST /v1/fuelings) in the last 7 UTC days' }),
        ),
      fuelings_verified_7d: z
        .number()
        .check(z.int(), z.meta({ description: 'Of those, the ones verified against the truck’s own data' })),
    }),
    purchase_verification: z
      .object({
        reported: z.number().check(z.int()),
        verified: z.number().check(z.int()),
        unverified: z
          .number()
          .check(z.int(), z.meta({ description: 'The truck’s data had nothing to check them against' })),
        flagged: z
          .number()
          .check(
            z.int(),
            z.meta({ description: 'The truck’s data disagrees: listed in the savings report' }),
          ),
        not_checked: z
          .number()
          .check(
            z.int(),
            z.meta({ description: 'Recorded before purchases were checked: no verdict, in no share' }),
          ),
        verified_share: nullableNumber(
          'verified ÷ reported (0–1); null when nothing was reported. Flagged and unverified purchases both pull it down: how the integration lets purchases be checked is checkable_share',
        ),
        checkable_share: nullableNumber(
          '(verified + flagged) ÷ (reported − not_checked) (0–1): the share of purchases the trucks’ data could check, whatever it found (the purchases_verifiable check); null when none was checked',
        ),
      })
      .check(
        z.meta({
          description:
            'The card purchases reported in the last 7 UTC days, by their check against the truck’s own data (the purchases_verifiable check)',
        }),
      ),
    webhooks: z.object({
      active_endpoints: z.number().check(z.int()),
      deliveries_24h: z.number().check(z.int(), z.meta({ description: 'Delivery attempts in the window' })),
      succeeded_24h: z.number().check(z.int()),
      success_rate: nullableNumber('0–1; null with no attempts'),
      failing_endpoints: z.array(
        z.object({
          id: z.string(),
          url: z.string(),
          status: z.string(),
          deliveries_24h: z.number().check(z.int()),
          succeeded_24h: z.number().check(z.int()),
        }),
      ),
    }),
    next_steps: z
      .array(nextStep)
      .check(z.meta({ description: 'Failures first, then warnings; the biggest gain first' })),
  })
  .check(z.meta({ id: 'HealthScorecard' }));

const fleetSummary = z.object({
  fleet_id: z.string(),
  name: z.string(),
  score: z.number().check(z.int()),
  grade,
  checked_at: timestamp,
  top_issue: z
    .nullable(
      z.object({
        check_id: checkId,
        severity: z.enum(['high', 'medium']),
        status: checkStatus,
        detail: z.string(),
        action: z.string(),
      }),
    )
    .check(z.meta({ description: 'The first next step; null when every check passes' })),
});
export const fleetSummaryPage = pageOf(fleetSummary, 'HealthFleetSummaryPage');

export const healthResponse = z.union([scorecardSchema, fleetSummaryPage]).check(
  z.meta({
    description:
      'The scorecard of one fleet; for a partner key naming no fleet, a page of per-fleet summaries',
  }),
);

export const healthHistorySchema = z
  .object({
    fleet_id: z.string(),
    days: z.number().check(z.int()),
    from: z.string().check(z.meta({ description: 'First UTC day, YYYY-MM-DD' })),
    to: z.string().check(z.meta({ description: 'Last UTC day (today)' })),
    generated_at: timestamp,
    snapshots: z
      .array(
        z.object({
          day: z.string(),
          checked_at: timestamp,
          score: z.number().check(z.int()),
          grade,
          checks: z
            .record(z.string(), checkStatus)
            .check(z.meta({ description: 'Each check’s status that day' })),
          vehicles_active: z.number().check(z.int()),
          vehicles_reporting_24h: z.number().check(z.int()),
          breadcrumbs_24h: z.number().check(z.int()),
        }),
      )
      .check(z.meta({ description: 'Oldest first; a day without a snapshot is absent' })),
  })
  .check(z.meta({ id: 'HealthHistory' }));

export const integrationTestSchema = z
  .object({
    scorecard: scorecardSchema,
    endpoints: z.array(
      z.object({
        endpoint_id: z.string(),
        url: z.string(),
        event_type: z.string(),
        delivered: z.boolean(),
        status_code: z.nullable(z.number().check(z.int())),
        latency_ms: z.number(),
        error: z.nullable(z.string()),
      }),
    ),
    next_steps: z.array(nextStep),
  })
  .check(z.meta({ id: 'IntegrationTestResult' }));
