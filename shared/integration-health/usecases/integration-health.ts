import type { Fleet } from '#shared/fleets/domain/fleet.ts';
import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import type { SavingsFigures } from '#shared/fuelings/domain/savings.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { FLEET_HEADER } from '#shared/platform/fleet-header.ts';
import type { SavingsDayStore } from '#shared/reports/store/savings-days.ts';
import type { Page } from '#shared/table/cursor.ts';
import type { WebhookEndpointStore } from '#shared/webhooks/store/webhook-endpoints.ts';
import {
  checkableShare,
  FUELING_LOOKBACK_DAYS,
  type HealthFigures,
  notChecked,
  runChecks,
  verifiedShare,
} from '../domain/checks.ts';
import { gradeOf, healthScore, isFailingEndpoint, nextSteps } from '../domain/score.ts';
import { dayOf, HEALTH_WINDOW_HOURS, healthWindow } from '../domain/window.ts';
import type { EndpointDeliveries, IntegrationCounterStore } from '../store/integration-counters.ts';
import type { IntegrationFleetStateStore } from '../store/integration-fleet-state.ts';

export interface ScorecardDeps {
  counters: Pick<IntegrationCounterStore, 'hours'>;
  fleetState: IntegrationFleetStateStore;
  endpoints: Pick<WebhookEndpointStore, 'all'>;
  savingsDays: Pick<SavingsDayStore, 'fleetDays'>;
  now: () => number;
}

export interface HealthDeps extends ScorecardDeps {
  fleets: Pick<FleetStore, 'hasGrant' | 'listGranted'>;
}

/** Who asks: the key, and the fleet the HTTP chain chose (company key, or SVC-Fleet), if any. */
export interface HealthCaller {
  principal: Pick<Principal, 'ownerType' | 'partnerId' | 'ownFleetId'> &
    Partial<Pick<Principal, 'keyCreatedAt'>>;
  actingFleetId: string | null;
}

const DAY_MS = 86_400_000;

export type Scorecard = ReturnType<typeof scorecardOf>;

/**
 * The fleet's scorecard, from maintained aggregates only: the 24 hour counters of the window, the
 * fleet's current vehicle, position and tracking items (projected), its webhook endpoints and the
 * savings day items of the last week. Never a read of breadcrumb history.
 */
export async function fleetScorecard(
  deps: ScorecardDeps,
  fleetId: string,
  keyCreatedAt: string | undefined,
): Promise<Scorecard> {
  const nowMs = deps.now();
  const window = healthWindow(nowMs);
  const fuelingDays = Array.from({ length: FUELING_LOOKBACK_DAYS }, (_, i) =>
    dayOf(nowMs - i * DAY_MS),
  ).reverse();
  const [hours, vehicles, endpoints, savingsDays] = await Promise.all([
    deps.counters.hours(fleetId, window.fromMs, window.toMs),
    deps.fleetState.vehicleState(fleetId, nowMs - HEALTH_WINDOW_HOURS * 3_600_000),
    deps.endpoints.all({ kind: 'fleet', fleetId }),
    deps.savingsDays.fleetDays(fleetId, fuelingDays),
  ]);

  const deliveries = new Map<string, EndpointDeliveries>();
  for (const hour of hours) {
    for (const [endpointId, counts] of hour.deliveries) {
      const sum = deliveries.get(endpointId) ?? { attempts: 0, succeeded: 0 };
      deliveries.set(endpointId, {
        attempts: sum.attempts + counts.attempts,
        succeeded: sum.succeeded + counts.succeeded,
      });
    }
  }
  const endpointIds = new Set(endpoints.map((endpoint) => endpoint.id));
  const countedDeliveries = [...deliveries].filter(([id]) => endpointIds.has(id));
  const attempts = countedDeliveries.reduce((sum, [, d]) => sum + d.attempts, 0);
  const succeeded = countedDeliveries.reduce((sum, [, d]) => sum + d.succeeded, 0);
  const failing = endpoints.filter((endpoint) => {
    const d = deliveries.get(endpoint.id);
    return d !== undefined && isFailingEndpoint(d.attempts, d.succeeded);
  });
  const sum = (pick: (hour: (typeof hours)[number]) => number) => hours.reduce((s, h) => s + pick(h), 0);
  const total = (pick: (figures: SavingsFigures) => number) =>
    savingsDays.reduce((s, row) => s + pick(row.figures), 0);

  const figures: HealthFigures = {
    vehiclesActive: vehicles.vehiclesActive,
    vehiclesReporting24h: vehicles.vehiclesReporting,
    vehiclesWithFuelLevel: vehicles.vehiclesWithFuelLevel,
    vehiclesMissingProfile: vehicles.vehiclesMissingProfile,
    breadcrumbs: sum((h) => h.breadcrumbs),
    breadcrumbsWithLevel: sum((h) => h.withLevel),
    rejectedItems: sum((h) => h.rejected),
    gapMsSum: sum((h) => h.gapMsSum),
    gapCount: sum((h) => h.gapCount),
    webhooks: {
      activeEndpoints: endpoints.filter((endpoint) => endpoint.status === 'active').length,
      attempts,
      succeeded,
      failingEndpoints: failing.length,
    },
    vehiclesWithGuidance: vehicles.vehiclesWithGuidance,
    fuelingsRecent: total((figures) => figures.fuelings),
    purchases: {
      reported: total((figures) => figures.reportedFuelings),
      verified: total((figures) => figures.verifiedFuelings),
      unverified: total((figures) => figures.unverifiedFuelings),
      flagged: total((figures) => figures.flaggedFuelings),
    },
    keyAgeDays: keyCreatedAt ? Math.max(0, (nowMs - Date.parse(keyCreatedAt)) / DAY_MS) : null,
  };
  const failingEndpoints = failing.map((endpoint) => ({
    id: endpoint.id,
    url: endpoint.url,
    status: endpoint.status,
    deliveries_24h: deliveries.get(endpoint.id)?.attempts ?? 0,
    succeeded_24h: deliveries.get(endpoint.id)?.succeeded ?? 0,
  }));
  return scorecardOf(fleetId, nowMs, figures, failingEndpoints);
}

export interface FailingEndpoint {
  id: string;
  url: string;
  status: string;
  deliveries_24h: number;
  succeeded_24h: number;
}

/** The published scorecard of gathered figures (also what the published example is built with). */
export function scorecardOf(
  fleetId: string,
  nowMs: number,
  figures: HealthFigures,
  failingEndpoints: readonly FailingEndpoint[],
) {
  const window = healthWindow(nowMs);
  const checks = runChecks(figures);
  const score = healthScore(checks);
  const { attempts, succeeded } = figures.webhooks;
  return {
    fleet_id: fleetId,
    score,
    grade: gradeOf(score),
    checked_at: formatTimestamp(nowMs),
    window: {
      from: formatTimestamp(window.fromMs),
      to: formatTimestamp(window.toMs),
      hours: HEALTH_WINDOW_HOURS,
    },
    checks,
    counts: {
      vehicles_active: figures.vehiclesActive,
      vehicles_reporting_24h: figures.vehiclesReporting24h,
      vehicles_with_fuel_level: figures.vehiclesWithFuelLevel,
      vehicles_missing_tank_or_mpg: figures.vehiclesMissingProfile,
      breadcrumbs_24h: figures.breadcrumbs,
      rejected_items_24h: figures.rejectedItems,
      fuelings_reported_7d: figures.purchases.reported,
      fuelings_verified_7d: figures.purchases.verified,
    },
    purchase_verification: {
      ...figures.purchases,
      not_checked: notChecked(figures.purchases),
      verified_share: verifiedShare(figures.purchases),
      checkable_share: checkableShare(figures.purchases),
    },
    webhooks: {
      active_endpoints: figures.webhooks.activeEndpoints,
      deliveries_24h: attempts,
      succeeded_24h: succeeded,
      success_rate: attempts === 0 ? null : Math.round((succeeded / attempts) * 1000) / 1000,
      failing_endpoints: [...failingEndpoints],
    },
    next_steps: nextSteps(checks),
  };
}

/**
 * Which fleet a health call is about (docs/integration-health.md, "Which fleet"): the fleet the
 * chain chose (a company key's own, or a partner's SVC-Fleet), or the `fleet_id` query. When both
 * name a fleet they must agree; a partner's `fleet_id` must be granted to it (403
 * `fleet_scope_mismatch`, as for the header). Null: a partner key that named no fleet.
 */
export async function healthFleet(
  deps: { fleets: Pick<FleetStore, 'hasGrant'> },
  caller: HealthCaller,
  queryFleetId: string | undefined,
): Promise<string | null> {
  const { principal, actingFleetId } = caller;
  if (queryFleetId === undefined) return actingFleetId;
  if (actingFleetId !== null) {
    if (queryFleetId === actingFleetId) return actingFleetId;
    if (principal.ownerType === 'company') {
      throw new ApiError('fleet_scope_mismatch', `This key acts on its own fleet, not ${queryFleetId}.`, {
        hint: 'company keys get their own fleet’s scorecard: leave fleet_id out',
      });
    }
    throw new ApiError(
      'validation_failed',
      `fleet_id names ${queryFleetId} but the ${FLEET_HEADER} header names ${actingFleetId}.`,
      {
        hint: `name the fleet once: fleet_id or the ${FLEET_HEADER} header`,
        extensions: { errors: [{ field: 'fleet_id', message: `differs from the ${FLEET_HEADER} header` }] },
      },
    );
  }
  if (!principal.partnerId || !(await deps.fleets.hasGrant(principal.partnerId, queryFleetId))) {
    throw new ApiError('fleet_scope_mismatch', `The key is not authorized for fleet ${queryFleetId}.`);
  }
  return queryFleetId;
}

/** Calls that need one fleet: a partner naming none is told how to name one. */
export async function requiredHealthFleet(
  deps: { fleets: Pick<FleetStore, 'hasGrant'> },
  caller: HealthCaller,
  queryFleetId: string | undefined,
): Promise<string> {
  const fleetId = await healthFleet(deps, caller, queryFleetId);
  if (fleetId === null) {
    throw new ApiError(
      'fleet_header_required',
      `Name the fleet with the fleet_id query parameter or the ${FLEET_HEADER} header.`,
      { hint: `partner keys name the fleet with ?fleet_id=flt_… or the ${FLEET_HEADER} header` },
    );
  }
  return fleetId;
}

/** Scorecards computed at once for a page of a partner's fleets. */
const SUMMARIES_AT_ONCE = 8;

/**
 * GET /v1/integration/health: the acting fleet's scorecard, or for a partner key naming no fleet
 * a page of per-fleet summaries over its granted fleets.
 */
export async function integrationHealth(
  deps: HealthDeps,
  caller: HealthCaller,
  query: { fleet_id?: string | undefined; cursor?: string | undefined; limit: number },
) {
  const fleetId = await healthFleet(deps, caller, query.fleet_id);
  if (fleetId !== null) return fleetScorecard(deps, fleetId, caller.principal.keyCreatedAt);
  return fleetSummaries(deps, caller.principal.partnerId as string, caller.principal.keyCreatedAt, query);
}

async function fleetSummaries(
  deps: HealthDeps,
  partnerId: string,
  keyCreatedAt: string | undefined,
  page: { cursor?: string | undefined; limit: number },
) {
  const fleets: Page<Fleet> = await deps.fleets.listGranted(partnerId, page.limit, page.cursor);
  const data: FleetSummary[] = [];
  for (let start = 0; start < fleets.data.length; start += SUMMARIES_AT_ONCE) {
    const batch = fleets.data.slice(start, start + SUMMARIES_AT_ONCE);
    data.push(
      ...(await Promise.all(
        batch.map(async (fleet) => summaryOf(fleet, await fleetScorecard(deps, fleet.id, keyCreatedAt))),
      )),
    );
  }
  return { data, next_cursor: fleets.next_cursor };
}

type FleetSummary = ReturnType<typeof summaryOf>;

export function summaryOf(fleet: Pick<Fleet, 'id' | 'name'>, scorecard: Scorecard) {
  const top = scorecard.next_steps[0];
  const check = top ? scorecard.checks.find((c) => c.id === top.check_id) : undefined;
  return {
    fleet_id: fleet.id,
    name: fleet.name,
    score: scorecard.score,
    grade: scorecard.grade,
    checked_at: scorecard.checked_at,
    top_issue:
      top && check
        ? {
            check_id: top.check_id,
            severity: top.severity,
            status: check.status,
            detail: check.detail,
            action: top.action,
          }
        : null,
  };
}
