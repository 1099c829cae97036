import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { WEBHOOK_DISPATCHER } from '../lib/worker-functions.ts';
import { registerLocalPipeline } from '../shared/platform/adapters/delivery-pipeline.ts';
import { createInProcessQueue, type InProcessQueue } from './in-process-queue.ts';
import { createInProcessScheduler, type InProcessScheduler } from './in-process-scheduler.ts';
import { createLambdaContext } from './lambda-context.ts';

/** Any Lambda handler module's export; the loader is the stage server's, shared with the routes. */
type ModuleHandler = (event: never, context: Context) => unknown;
type SqsLambdaHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

export interface LocalWorkersOptions {
  /** Names the local queue, e.g. `fleet-fuel-prod-deliveries`. */
  stage: string;
  region?: string;
  /** Imports a handler module once and hands back its `handler` (stage-server.ts's loader). */
  loadHandler: (modulePath: string) => Promise<ModuleHandler>;
  /** Faults and dead-lettered messages; they are never silent. */
  log: (line: string) => void;
  /** Default 1 s (see createInProcessQueue). */
  visibilityTimeoutMs?: number;
}

export interface LocalWorkers {
  queue: InProcessQueue<unknown>;
  scheduler: InProcessScheduler<unknown>;
  /** Imports the dispatcher now, as the routes are warmed; says so in one line if it is not there yet. */
  warm(): Promise<void>;
  stop(): void;
}

/**
 * The local stack's delivery pipeline in one stage server process: the in-process deliveries queue
 * (with its in-memory DLQ) and scheduler, registered for shared/platform/adapters/delivery-pipeline.ts
 * (`LOCAL_PIPELINE=1`), and the webhook dispatcher subscribed to the queue as its event source mapping
 * would be. The dispatcher module is imported on first use, so the server starts without it; until it
 * exists, batches fail and their messages end in the in-memory DLQ.
 *
 * @example
 * const workers = startLocalWorkers({ stage: 'prod', loadHandler, log: console.error });
 * await workers.warm();
 */
export function startLocalWorkers(options: LocalWorkersOptions): LocalWorkers {
  const region = options.region ?? 'us-east-1';
  const queue = createInProcessQueue<unknown>({
    name: `fleet-fuel-${options.stage}-deliveries`,
    region,
    log: options.log,
    ...(options.visibilityTimeoutMs === undefined
      ? {}
      : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
  });
  const scheduler = createInProcessScheduler<unknown>({ queue, log: options.log });
  registerLocalPipeline({ queue, scheduler, deadLetterQueue: queue.deadLetterQueue });

  const dispatcher = async () =>
    // The loader is typed for any handler; this module's contract is an SQS handler.
    (await options.loadHandler(WEBHOOK_DISPATCHER.handler)) as unknown as SqsLambdaHandler;
  queue.subscribe(async (event) => {
    const handler = await dispatcher();
    const context = createLambdaContext(
      WEBHOOK_DISPATCHER.name,
      WEBHOOK_DISPATCHER.timeoutSeconds * 1000,
      region,
    );
    return handler(event, context);
  });

  return {
    queue,
    scheduler,
    async warm() {
      try {
        await dispatcher();
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException;
        options.log(
          code === 'ERR_MODULE_NOT_FOUND' && message.includes(WEBHOOK_DISPATCHER.handler)
            ? `webhook dispatcher ${WEBHOOK_DISPATCHER.handler} not found; webhook deliveries fail until it exists`
            : `webhook dispatcher ${WEBHOOK_DISPATCHER.handler} failed to load: ${message}`,
        );
      }
    },
    stop() {
      scheduler.stop();
      queue.stop();
    },
  };
}
