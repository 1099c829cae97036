import { formatTimestamp } from '#shared/kernel/time.ts';
import { HEALTH_HISTORY_DAYS } from '../domain/history.ts';
import { dayOf } from '../domain/window.ts';
import type { HealthSnapshot, IntegrationSnapshotStore } from '../store/integration-snapshots.ts';
import { type HealthCaller, type HealthDeps, requiredHealthFleet } from './integration-health.ts';

export interface HealthHistoryDeps extends Pick<HealthDeps, 'fleets' | 'now'> {
  snapshots: Pick<IntegrationSnapshotStore, 'range'>;
}

const DAY_MS = 86_400_000;

/**
 * GET /v1/integration/health/history: the fleet's persisted daily snapshots of the last `days` UTC
 * days (today included), oldest first. A day without a snapshot (no activity, or before the job
 * first ran) is absent rather than invented.
 */
export async function healthHistory(
  deps: HealthHistoryDeps,
  caller: HealthCaller,
  query: { fleet_id?: string | undefined; days?: number | undefined },
) {
  const fleetId = await requiredHealthFleet(deps, caller, query.fleet_id);
  const days = query.days ?? HEALTH_HISTORY_DAYS.default;
  const snapshots = await deps.snapshots.range(fleetId, ...historyDays(days, deps.now()));
  return historyOf(fleetId, days, deps.now(), snapshots);
}

/** The first and last UTC day of the last `days` days, today included. */
export function historyDays(days: number, nowMs: number): [from: string, to: string] {
  return [dayOf(nowMs - (days - 1) * DAY_MS), dayOf(nowMs)];
}

/** The published history of the snapshots read. */
export function historyOf(
  fleetId: string,
  days: number,
  nowMs: number,
  snapshots: readonly HealthSnapshot[],
) {
  const [from, to] = historyDays(days, nowMs);
  return {
    fleet_id: fleetId,
    days,
    from,
    to,
    generated_at: formatTimestamp(nowMs),
    snapshots: snapshots.map((snapshot) => ({
      day: snapshot.day,
      checked_at: snapshot.checkedAt,
      score: snapshot.score,
      grade: snapshot.grade,
      checks: snapshot.checks,
      vehicles_active: snapshot.vehiclesActive,
      vehicles_reporting_24h: snapshot.vehiclesReporting24h,
      breadcrumbs_24h: snapshot.breadcrumbs24h,
    })),
  };
}
