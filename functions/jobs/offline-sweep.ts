import type { Context } from 'aws-lambda';
import { logger } from '../../shared/platform/observability.ts';
import { eventRecorder } from '../../shared/store/delivery-repositories.ts';
import { trackingStore } from '../../shared/store/guidance-repositories.ts';
import { sweepOfflineVehicles } from '../../shared/usecases/offline-sweep.ts';

/** Invoked every minute by EventBridge Scheduler (the local stack's job runner locally); the event carries nothing we need. */
export const handler = async (): Promise<{ markedOffline: number }> => {
  const result = await sweepOfflineVehicles({
    tracking: trackingStore(),
    events: eventRecorder(),
    now: Date.now,
  });
  if (result.markedOffline > 0) logger.info('Offline sweep', result);
  return result;
};
