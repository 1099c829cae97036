import type { Context } from 'aws-lambda';
import { offlineSweepDeps } from '#shared/guidance/wiring/guidance.ts';
import { logger } from '#shared/platform/observability.ts';
import { sweepOfflineVehicles } from '#shared/tracking/usecases/offline-sweep.ts';
import { sweepTripOutboxes } from '#shared/trips/usecases/trip-follow-up.ts';
import { tripChangeDeps } from '#shared/trips/wiring/trip-follow-up.ts';

/** Left for the writes in flight when the budget runs out, under the function's 60 s timeout. */
const SAFETY_MARGIN_MS = 10_000;

/**
 * Invoked every minute by EventBridge Scheduler (the local stack's job runner locally); the event
 * carries nothing we need. Work left when the budget runs out stays in the index for the next run.
 * The same run carries out trip follow-up work a request left behind (docs/trips.md, Outbox).
 */
export const handler = async (
  _event: unknown,
  context?: Context,
): Promise<{
  markedOffline: number;
  failed: number;
  tripOutboxes: { carriedOut: number; failed: number };
}> => {
  const budgetMs = context ? Math.max(0, context.getRemainingTimeInMillis() - SAFETY_MARGIN_MS) : undefined;
  const result = await sweepOfflineVehicles(
    {
      ...offlineSweepDeps(),
      onError: (vehicle, error) =>
        logger.error('Offline sweep could not handle a vehicle', { ...vehicle, error }),
    },
    budgetMs,
  );
  if (result.markedOffline > 0 || result.failed > 0) logger.info('Offline sweep', result);
  const tripOutboxes = await sweepTripOutboxes({
    ...tripChangeDeps(),
    onError: (trip, error) =>
      logger.error('Trip outbox sweep could not carry out a trip', { ...trip, error }),
  });
  if (tripOutboxes.carriedOut > 0 || tripOutboxes.failed > 0) logger.info('Trip outbox sweep', tripOutboxes);
  return { ...result, tripOutboxes };
};
