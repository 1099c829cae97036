import { logger } from '#shared/platform/observability.ts';
import { tickSimulations } from '#shared/sandbox/usecases/sandbox-simulation.ts';
import { sandboxDeps } from '#shared/sandbox/wiring/sandbox.ts';

/**
 * Invoked every minute by EventBridge Scheduler on the sandbox stage (the local stack's job runner on
 * the sandbox stage server): one simulated minute for every running twin (docs/sandbox.md).
 */
export const handler = async (): Promise<{ ticked: number; paused: number; failed: number }> => {
  const result = await tickSimulations({
    ...sandboxDeps(),
    onError: (context, error) => logger.error('Sandbox tick could not run a twin', { ...context, error }),
  });
  if (result.paused > 0 || result.failed > 0) logger.info('Sandbox tick', result);
  return result;
};
