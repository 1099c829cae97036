/**
 * Usage counters of the local stack, counted as AWS would bill the deployed services: function
 * invocations and their durations, API Gateway requests, bytes written to the logs per function,
 * and SQS API requests per queue. The cost model (bench/cost-model.ts) turns them into dollars;
 * nothing in the local stack's behaviour depends on them.
 *
 * Durations are measured in this process, on this machine: an estimate of Lambda's, not Lambda's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';

/** SQS bills every 64 KB chunk of a request's payload as one request. */
export const SQS_BILLING_CHUNK_BYTES = 65_536;

export interface FunctionUsage {
  invocations: number;
  /** Invocations that came through the HTTP API (an API Gateway request each). */
  apiRequests: number;
  /** Sum of each invocation's wall time in ms. */
  durationMs: number;
  /** Sum of each invocation's duration rounded up to a whole ms, as Lambda bills it. */
  billedDurationMs: number;
  /** Bytes the function wrote to stdout/stderr (its CloudWatch log stream, deployed). */
  logBytes: number;
}

export interface QueueUsage {
  messagesSent: number;
  /**
   * Messages whose handling is over: processed (deleted) or moved to the dead-letter queue. Equal to
   * `messagesSent` when the queue is drained: what a benchmark waits for, as the worker's stored
   * state need not change with every message.
   */
  messagesDone: number;
  /** SendMessageBatch calls (up to 10 messages each), as the deployed SQS adapter sends them. */
  sendRequests: number;
  /** ReceiveMessage calls that returned a batch (the event source mapping's polls that found work). */
  receiveRequests: number;
  /** DeleteMessageBatch calls (one per batch with at least one success). */
  deleteRequests: number;
  /** The three above, each counted once per started 64 KB of its payload. */
  billedRequests: number;
  /** Messages in the dead-letter queue now. */
  deadLetters: number;
}

export interface StageUsage {
  functions: Record<string, FunctionUsage>;
  queues: Record<string, QueueUsage>;
  /** Log bytes written outside any invocation (the stage server's own request lines). */
  unattributedLogBytes: number;
  memory: { rssBytes: number; heapUsedBytes: number };
}

export const emptyFunctionUsage = (): FunctionUsage => ({
  invocations: 0,
  apiRequests: 0,
  durationMs: 0,
  billedDurationMs: 0,
  logBytes: 0,
});

export const emptyQueueUsage = (): QueueUsage => ({
  messagesSent: 0,
  messagesDone: 0,
  sendRequests: 0,
  receiveRequests: 0,
  deleteRequests: 0,
  billedRequests: 0,
  deadLetters: 0,
});

/** The number of billed SQS requests for one API call carrying `payloadBytes`. */
export function sqsBilledRequests(payloadBytes: number): number {
  return Math.max(1, Math.ceil(payloadBytes / SQS_BILLING_CHUNK_BYTES));
}

type Handler = (event: never, context: Context) => unknown;

export interface UsageMeter {
  /** The same handler, counted under `context.functionName` and attributing its log writes to it. */
  meter<H extends Handler>(handler: H): H;
  /**
   * Counts bytes written to these streams under the invocation that wrote them. Until this is
   * called no invocation runs in an AsyncLocalStorage context: on Node 20 that context costs every
   * promise a hook, about a tenth of a busy stage server's CPU (docs/scaling.md), so a run that
   * does not need log bytes per function (the throughput benchmark) leaves it off.
   */
  attributeLogs(streams: readonly NodeJS.WriteStream[]): void;
  functions(): Record<string, FunctionUsage>;
  unattributedLogBytes(): number;
}

/** `0` makes a stage server count invocations and durations but not log bytes per function. */
export const METER_LOGS_ENV = 'LOCAL_METER_LOGS';

/** One meter per stage server process. */
export function createUsageMeter(): UsageMeter {
  const functions = new Map<string, FunctionUsage>();
  const current = new AsyncLocalStorage<FunctionUsage>();
  let attributing = false;
  let unattributed = 0;
  const usageOf = (name: string) => {
    let usage = functions.get(name);
    if (!usage) {
      usage = emptyFunctionUsage();
      functions.set(name, usage);
    }
    return usage;
  };

  return {
    meter(handler) {
      const metered = async (event: never, context: Context) => {
        const usage = usageOf(context.functionName);
        usage.invocations += 1;
        if (isApiGatewayEvent(event)) usage.apiRequests += 1;
        const started = performance.now();
        try {
          return await (attributing
            ? current.run(usage, () => handler(event, context))
            : handler(event, context));
        } finally {
          const ms = performance.now() - started;
          usage.durationMs += ms;
          usage.billedDurationMs += Math.max(1, Math.ceil(ms));
        }
      };
      return metered as unknown as typeof handler;
    },
    attributeLogs(streams) {
      attributing = true;
      for (const stream of streams) {
        const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
        stream.write = ((chunk: unknown, ...rest: unknown[]) => {
          const bytes =
            typeof chunk === 'string' ? Buffer.byteLength(chunk) : ((chunk as Uint8Array)?.byteLength ?? 0);
          const usage = current.getStore();
          if (usage) usage.logBytes += bytes;
          else unattributed += bytes;
          return write(chunk, ...rest);
        }) as typeof stream.write;
      }
    },
    functions: () => Object.fromEntries([...functions].map(([name, usage]) => [name, { ...usage }])),
    unattributedLogBytes: () => unattributed,
  };
}

function isApiGatewayEvent(event: unknown): boolean {
  const context = (event as { requestContext?: { http?: unknown } } | null)?.requestContext;
  return typeof context?.http === 'object' && context.http !== null;
}

/** `after − before`, per function and queue (memory and dead letters: `after`'s). */
export function usageSince(before: StageUsage, after: StageUsage): StageUsage {
  const functions: Record<string, FunctionUsage> = {};
  for (const [name, usage] of Object.entries(after.functions)) {
    const earlier = before.functions[name] ?? emptyFunctionUsage();
    functions[name] = {
      invocations: usage.invocations - earlier.invocations,
      apiRequests: usage.apiRequests - earlier.apiRequests,
      durationMs: usage.durationMs - earlier.durationMs,
      billedDurationMs: usage.billedDurationMs - earlier.billedDurationMs,
      logBytes: usage.logBytes - earlier.logBytes,
    };
  }
  const queues: Record<string, QueueUsage> = {};
  for (const [name, usage] of Object.entries(after.queues)) {
    const earlier = before.queues[name] ?? emptyQueueUsage();
    queues[name] = {
      messagesSent: usage.messagesSent - earlier.messagesSent,
      messagesDone: usage.messagesDone - earlier.messagesDone,
      sendRequests: usage.sendRequests - earlier.sendRequests,
      receiveRequests: usage.receiveRequests - earlier.receiveRequests,
      deleteRequests: usage.deleteRequests - earlier.deleteRequests,
      billedRequests: usage.billedRequests - earlier.billedRequests,
      deadLetters: usage.deadLetters,
    };
  }
  return {
    functions,
    queues,
    unattributedLogBytes: after.unattributedLogBytes - before.unattributedLogBytes,
    memory: after.memory,
  };
}
