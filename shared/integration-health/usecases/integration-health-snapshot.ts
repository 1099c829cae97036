import { dayOf } from '../domain/window.ts';
import type { IntegrationCounterStore } from '../store/integration-counters.ts';
import type { IntegrationSnapshotStore } from '../store/integration-snapshots.ts';
import { fleetScorecard, type ScorecardDeps } from './integration-health.ts';

export interface SnapshotJobDeps extends ScorecardDeps {
  counters: Pick<IntegrationCounterStore, 'hours' | 'activeFleets'>;
  snapshots: Pick<IntegrationSnapshotStore, 'put'>;
  onError: (fleetId: string, error: unknown) => void;
}

const DAY_MS = 86_400_000;

/**
 * The scheduled snapshot job: every fleet with activity today or yesterday (the day markers the
 * counters keep, so no table scan) gets today's snapshot of its scorecard, which a later run the
 * same day replaces. A snapshot has no calling key, so its key-age check is `warn` (unknown) and
 * the score comparable from day to day. One fleet's failure is reported and the rest carry on.
 */
export async function snapshotFleetHealth(
  deps: SnapshotJobDeps,
): Promise<{ snapshots: number; failed: number }> {
  const nowMs = deps.now();
  const day = dayOf(nowMs);
  const fleets = new Set([
    ...(await deps.counters.activeFleets(dayOf(nowMs - DAY_MS))),
    ...(await deps.counters.activeFleets(day)),
  ]);
  let snapshots = 0;
  let failed = 0;
  for (const fleetId of fleets) {
    try {
      const scorecard = await fleetScorecard(deps, fleetId, undefined);
      await deps.snapshots.put({
        fleetId,
        day,
        checkedAt: scorecard.checked_at,
        score: scorecard.score,
        grade: scorecard.grade,
        checks: Object.fromEntries(scorecard.checks.map((check) => [check.id, check.status])),
        vehiclesActive: scorecard.counts.vehicles_active,
        vehiclesReporting24h: scorecard.counts.vehicles_reporting_24h,
        breadcrumbs24h: scorecard.counts.breadcrumbs_24h,
      });
      snapshots += 1;
    } catch (error) {
      failed += 1;
      deps.onError(fleetId, error);
    }
  }
  return { snapshots, failed };
}
