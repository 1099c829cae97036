import { snapshotFleetHealth } from '#shared/integration-health/usecases/integration-health-snapshot.ts';
import { healthSnapshotDeps } from '#shared/integration-health/wiring/integration-health.ts';
import { logger } from '#shared/platform/observability.ts';

/**
 * Invoked once a day by EventBridge Scheduler (lib/jobs.ts; locally local/workers.ts); the event
 * carries nothing we need. Writes today's health snapshot of every fleet with recent activity.
 */
export const handler = async (): Promise<{ snapshots: number; failed: number }> => {
  const result = await snapshotFleetHealth({
    ...healthSnapshotDeps(),
    onError: (fleetId, error) => logger.error('Health snapshot failed for a fleet', { fleetId, error }),
  });
  logger.info('Health snapshots', result);
  return result;
};
