/**
 * The functions that are not routes: their bundle name, handler module and timeout, named once for
 * the bundler (scripts/bundle-functions.ts), the stack (lib/webhooks.ts) and the local stack
 * (local/workers.ts). Plain data, so none of them loads aws-cdk-lib to read it.
 */
export interface WorkerFunction {
  /** The bundle's folder under dist/functions and the function's log group name. */
  name: string;
  /** Relative to the repository root; the module exports `handler`. */
  handler: string;
  timeoutSeconds: number;
  description: string;
}

/**
 * The SQS consumer that POSTs webhook deliveries. Each delivery is one HTTP call with a timeout of a
 * few seconds; 60 s covers a batch of 10 even if every receiver is slow and the records run one after
 * another, and the deliveries queue's visibility timeout is derived from it.
 */
export const WEBHOOK_DISPATCHER = {
  name: 'webhookDispatcher',
  handler: 'functions/workers/webhook-dispatcher.ts',
  timeoutSeconds: 60,
  description: 'Webhook deliveries: POST each event to its endpoint, schedule retries',
} as const satisfies WorkerFunction;

export const workerFunctions: readonly WorkerFunction[] = [WEBHOOK_DISPATCHER];
