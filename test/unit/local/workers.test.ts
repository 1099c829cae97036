import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  GUIDANCE_WORKER,
  HEALTH_SNAPSHOT,
  OFFLINE_SWEEP,
  PRICE_FRESHNESS,
  SANDBOX_TICK,
  WEBHOOK_DISPATCHER,
} from '#lib/worker-functions.ts';
import type { LocalFunction } from '#local/function-loader.ts';
import { type LocalWorkers, startLocalWorkers } from '#local/workers.ts';
import type { DeliveryMessage } from '#shared/webhooks/domain/delivery.ts';
import { createDeliveryRetries } from '#shared/webhooks/wiring/retry-scheduler.ts';
import { createMessageQueues, forgetLocalPipeline } from '#shared/wiring/message-queues.ts';

const local = createMessageQueues({ LOCAL_PIPELINE: '1' });
const localRetries = createDeliveryRetries({ LOCAL_PIPELINE: '1' });
/** The local queues carry any message; these tests need only an id to follow. */
const delivery = (deliveryId: string) => ({ deliveryId }) as unknown as DeliveryMessage;
const start = Date.UTC(2026, 10, 21, 12, 0, 0);

let workers: LocalWorkers | undefined;
let invocations: { event: SQSEvent; context: Context }[];

beforeEach(() => {
  vi.useFakeTimers({ now: start });
  forgetLocalPipeline();
  invocations = [];
});

afterEach(() => {
  workers?.stop();
  workers = undefined;
  vi.useRealTimers();
});

type AnyHandler = (event: never, context: Context) => unknown;

/** A loader that serves `dispatcher` for the dispatcher module, and `others` by module path; nothing else. */
function loaderFor(
  dispatcher: (event: SQSEvent, context: Context) => Promise<unknown>,
  others: Record<string, (event: never, context: Context) => Promise<unknown>> = {},
) {
  const modules: Record<string, unknown> = { [WEBHOOK_DISPATCHER.handler]: dispatcher, ...others };
  return vi.fn(async ({ handler: modulePath }: LocalFunction) => {
    const handler = modules[modulePath];
    if (!handler) throw new Error(`unexpected module ${modulePath}`);
    return handler as AnyHandler;
  });
}

const recordingDispatcher = async (event: SQSEvent, context: Context) => {
  invocations.push({ event, context });
  return { batchItemFailures: [] };
};

describe('startLocalWorkers', () => {
  it('registers the in-process pipeline, so the deliveries queue reaches the dispatcher as an SQS event', async () => {
    // Prepare
    const loadHandler = loaderFor(recordingDispatcher);
    workers = startLocalWorkers({ stage: 'prod', region: 'us-east-1', loadHandler, log: vi.fn() });

    // Act
    await local.deliveries().send([delivery('whd_1')]);
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(invocations).toHaveLength(1);
    const [{ event, context }] = invocations as [(typeof invocations)[number]];
    expect(event.Records.map((record) => record.body)).toEqual(['{"deliveryId":"whd_1"}']);
    expect(event.Records[0]?.eventSourceARN).toBe(
      'arn:aws:sqs:us-east-1:000000000000:fleet-fuel-prod-deliveries',
    );
    expect(context.functionName).toBe('webhookDispatcher');
    expect(context.getRemainingTimeInMillis()).toBe(WEBHOOK_DISPATCHER.timeoutSeconds * 1000);
  });

  it('brings a scheduled retry back to the dispatcher at its time', async () => {
    // Prepare
    workers = startLocalWorkers({
      stage: 'sandbox',
      loadHandler: loaderFor(recordingDispatcher),
      log: vi.fn(),
    });

    // Act
    await localRetries.scheduleOnce('whd_1-attempt-2', new Date(start + 5_000), delivery('whd_1'));
    await vi.advanceTimersByTimeAsync(4_999);
    const early = invocations.length;
    // The queue hands the message on asynchronously (setImmediate), a tick after the timer.
    await vi.advanceTimersByTimeAsync(2);

    // Assess
    expect(early).toBe(0);
    expect(invocations.map(({ event }) => event.Records[0]?.body)).toEqual(['{"deliveryId":"whd_1"}']);
  });

  it('keeps dead letters in the queue’s in-memory DLQ', async () => {
    workers = startLocalWorkers({ stage: 'prod', loadHandler: loaderFor(recordingDispatcher), log: vi.fn() });

    await local.deliveryDeadLetters().send([delivery('whd_exhausted')]);

    expect(workers.queue.deadLetterQueue.messages).toEqual([{ deliveryId: 'whd_exhausted' }]);
  });

  it('starts without the worker modules and says so in one line each when warmed', async () => {
    // Prepare
    const log = vi.fn();
    const loadHandler = vi.fn(async ({ handler: modulePath }: LocalFunction) => {
      throw Object.assign(new Error(`Cannot find module '/repo/${modulePath}' imported from /repo/local/`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    });
    workers = startLocalWorkers({ stage: 'prod', loadHandler, log });

    // Act
    await workers.warm();

    // Assess
    expect(log.mock.calls).toEqual([
      [`webhook dispatcher ${WEBHOOK_DISPATCHER.handler} not found; webhook deliveries fail until it exists`],
      [`guidance worker ${GUIDANCE_WORKER.handler} not found; vehicle updates fail until it exists`],
      [`offline sweep ${OFFLINE_SWEEP.handler} not found; offline sweeps fail until it exists`],
      [`health snapshot ${HEALTH_SNAPSHOT.handler} not found; health snapshots fail until it exists`],
      [`price freshness ${PRICE_FRESHNESS.handler} not found; price freshness runs fail until it exists`],
    ]);
  });

  it('imports every worker module when warmed', async () => {
    const loadHandler = loaderFor(recordingDispatcher, {
      [GUIDANCE_WORKER.handler]: async () => ({ batchItemFailures: [] }),
      [OFFLINE_SWEEP.handler]: async () => ({ markedOffline: 0 }),
      [HEALTH_SNAPSHOT.handler]: async () => ({ snapshots: 0, failed: 0 }),
      [PRICE_FRESHNESS.handler]: async () => ({}),
    });
    const log = vi.fn();
    workers = startLocalWorkers({ stage: 'prod', loadHandler, log });

    await workers.warm();

    // Each by its bundle's name as well as its module: a stage server running the bundles loads by name.
    expect(loadHandler.mock.calls.map(([{ name, handler }]) => ({ name, handler }))).toEqual(
      [WEBHOOK_DISPATCHER, GUIDANCE_WORKER, OFFLINE_SWEEP, HEALTH_SNAPSHOT, PRICE_FRESHNESS].map(
        ({ name, handler }) => ({ name, handler }),
      ),
    );
    expect(log).not.toHaveBeenCalled();
  });

  it('stops its timers on stop', async () => {
    workers = startLocalWorkers({ stage: 'prod', loadHandler: loaderFor(recordingDispatcher), log: vi.fn() });
    await localRetries.scheduleOnce('later', new Date(start + 60_000), delivery('whd_1'));

    workers.stop();

    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the vehicle-updates queue', () => {
  it('is registered, so the vehicle-updates queue reaches the guidance worker as an SQS event of its own queue', async () => {
    // Prepare
    const guidance: { event: SQSEvent; context: Context }[] = [];
    const loadHandler = loaderFor(recordingDispatcher, {
      [GUIDANCE_WORKER.handler]: async (event: SQSEvent, context: Context) => {
        guidance.push({ event, context });
        return { batchItemFailures: [] };
      },
    });
    workers = startLocalWorkers({ stage: 'sandbox', region: 'us-east-1', loadHandler, log: vi.fn() });

    // Act
    await local.vehicleUpdates().send([{ fleetId: 'flt_1', vehicleId: 'veh_1' }]);
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(invocations).toEqual([]);
    expect(guidance).toHaveLength(1);
    const [{ event, context }] = guidance as [(typeof guidance)[number]];
    expect(event.Records.map((record) => record.body)).toEqual(['{"fleetId":"flt_1","vehicleId":"veh_1"}']);
    expect(event.Records[0]?.eventSourceARN).toBe(
      'arn:aws:sqs:us-east-1:000000000000:fleet-fuel-sandbox-vehicle-updates',
    );
    expect(context.functionName).toBe(GUIDANCE_WORKER.name);
    expect(context.getRemainingTimeInMillis()).toBe(GUIDANCE_WORKER.timeoutSeconds * 1000);
  });

  it('keeps updates the worker keeps failing in its own DLQ, apart from the deliveries', async () => {
    // Prepare
    const loadHandler = loaderFor(recordingDispatcher, {
      [GUIDANCE_WORKER.handler]: async () => {
        throw new Error('routing engine down');
      },
    });
    const log = vi.fn();
    workers = startLocalWorkers({ stage: 'prod', loadHandler, log, visibilityTimeoutMs: 10 });

    // Act
    await local.vehicleUpdates().send([{ fleetId: 'flt_1', vehicleId: 'veh_1' }]);
    await vi.advanceTimersByTimeAsync(1_000);

    // Assess
    expect(workers.vehicleUpdates.deadLetterQueue.messages).toEqual([
      { fleetId: 'flt_1', vehicleId: 'veh_1' },
    ]);
    expect(workers.queue.deadLetterQueue.messages).toEqual([]);
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(/^fleet-fuel-prod-vehicle-updates: .*dead-letter/),
    );
  });
});

describe('the offline sweep', () => {
  const sweepLoader = (sweep: () => Promise<unknown>) =>
    loaderFor(recordingDispatcher, { [OFFLINE_SWEEP.handler]: vi.fn(sweep) });

  it('runs every minute by default, with the sweep’s own context', async () => {
    // Prepare
    const contexts: { functionName: string; remainingMs: number }[] = [];
    const loadHandler = loaderFor(recordingDispatcher, {
      [OFFLINE_SWEEP.handler]: async (_event: unknown, context: Context) => {
        contexts.push({
          functionName: context.functionName,
          remainingMs: context.getRemainingTimeInMillis(),
        });
        return { markedOffline: 0 };
      },
    });
    workers = startLocalWorkers({ stage: 'prod', loadHandler, log: vi.fn(), env: {} });

    // Act
    await vi.advanceTimersByTimeAsync(59_999);
    const early = contexts.length;
    await vi.advanceTimersByTimeAsync(60_001);

    // Assess
    expect(early).toBe(0);
    const context = { functionName: OFFLINE_SWEEP.name, remainingMs: OFFLINE_SWEEP.timeoutSeconds * 1000 };
    expect(contexts).toEqual([context, context]);
  });

  it('takes its interval from LOCAL_SWEEP_INTERVAL_MS, and the option over it', async () => {
    // Prepare
    const fromEnv = vi.fn(async () => ({ markedOffline: 0 }));
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: sweepLoader(fromEnv),
      log: vi.fn(),
      env: { LOCAL_SWEEP_INTERVAL_MS: '50' },
    });

    // Act
    await vi.advanceTimersByTimeAsync(200);
    workers.stop();
    const fromOption = vi.fn(async () => ({ markedOffline: 0 }));
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: sweepLoader(fromOption),
      log: vi.fn(),
      sweepIntervalMs: 100,
      env: { LOCAL_SWEEP_INTERVAL_MS: '50' },
    });
    await vi.advanceTimersByTimeAsync(200);

    // Assess
    expect(fromEnv).toHaveBeenCalledTimes(4);
    expect(fromOption).toHaveBeenCalledTimes(2);
  });

  it('is off with an interval of 0', async () => {
    const sweep = vi.fn(async () => ({ markedOffline: 0 }));
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: sweepLoader(sweep),
      log: vi.fn(),
      env: { LOCAL_SWEEP_INTERVAL_MS: '0' },
    });

    await vi.advanceTimersByTimeAsync(120_000);

    expect(workers.offlineSweep).toBeUndefined();
    expect(sweep).not.toHaveBeenCalled();
  });

  it('says so in one line and keeps the deployed rate when LOCAL_SWEEP_INTERVAL_MS is not a number', async () => {
    const log = vi.fn();
    const sweep = vi.fn(async () => ({ markedOffline: 0 }));
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: sweepLoader(sweep),
      log,
      env: { LOCAL_SWEEP_INTERVAL_MS: '1m' },
    });

    await vi.advanceTimersByTimeAsync(60_000);

    expect(log).toHaveBeenCalledExactlyOnceWith(
      'LOCAL_SWEEP_INTERVAL_MS=1m is not a whole number of ms; the offline sweep runs every 60000 ms',
    );
    expect(sweep).toHaveBeenCalledTimes(1);
  });

  it('logs a failing sweep in one line per run and never throws', async () => {
    const log = vi.fn();
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: sweepLoader(async () => {
        throw new Error('ResourceNotFoundException: table fleet-fuel-prod not found');
      }),
      log,
      sweepIntervalMs: 1_000,
    });

    await vi.advanceTimersByTimeAsync(2_000);

    expect(log.mock.calls).toEqual([
      ['offline sweep failed: ResourceNotFoundException: table fleet-fuel-prod not found'],
      ['offline sweep failed: ResourceNotFoundException: table fleet-fuel-prod not found'],
    ]);
  });
});

describe('the sandbox tick', () => {
  const tickLoader = (tick: () => Promise<unknown>) =>
    loaderFor(recordingDispatcher, {
      [OFFLINE_SWEEP.handler]: async () => ({ markedOffline: 0 }),
      [SANDBOX_TICK.handler]: tick,
    });

  it('runs on the sandbox stage server 3 s after the start, then every LOCAL_SANDBOX_TICK_INTERVAL_MS', async () => {
    const tick = vi.fn(async () => ({ ticked: 1, paused: 0, failed: 0 }));
    workers = startLocalWorkers({
      stage: 'sandbox',
      loadHandler: tickLoader(tick),
      log: vi.fn(),
      env: { LOCAL_SANDBOX_TICK_INTERVAL_MS: '10000' },
    });

    await vi.advanceTimersByTimeAsync(2_999);
    expect(tick).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(tick).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(17_000);
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it('runs every minute by default, and never on the production stage server', async () => {
    const sandboxTick = vi.fn(async () => ({ ticked: 0, paused: 0, failed: 0 }));
    workers = startLocalWorkers({
      stage: 'sandbox',
      loadHandler: tickLoader(sandboxTick),
      log: vi.fn(),
      env: {},
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sandboxTick).toHaveBeenCalledTimes(2);
    workers.stop();

    const prodTick = vi.fn(async () => ({ ticked: 0, paused: 0, failed: 0 }));
    workers = startLocalWorkers({ stage: 'prod', loadHandler: tickLoader(prodTick), log: vi.fn(), env: {} });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(prodTick).not.toHaveBeenCalled();
    expect(workers.sandboxTick).toBeUndefined();
  });

  it('is off with an interval of 0', async () => {
    const tick = vi.fn(async () => ({ ticked: 0, paused: 0, failed: 0 }));
    workers = startLocalWorkers({
      stage: 'sandbox',
      loadHandler: tickLoader(tick),
      log: vi.fn(),
      env: { LOCAL_SANDBOX_TICK_INTERVAL_MS: '0' },
    });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(tick).not.toHaveBeenCalled();
  });
});

describe('the price freshness job', () => {
  const freshnessLoader = (freshness: () => Promise<unknown>) =>
    loaderFor(recordingDispatcher, {
      [OFFLINE_SWEEP.handler]: async () => ({ markedOffline: 0 }),
      [SANDBOX_TICK.handler]: async () => ({ ticked: 0, paused: 0, failed: 0 }),
      [PRICE_FRESHNESS.handler]: freshness,
    });

  it('runs every 15 minutes on the production stage server, as deployed', async () => {
    const freshness = vi.fn(async () => ({ source: 'synthetic', newestPriceAgeHours: 0.1 }));
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: freshnessLoader(freshness),
      log: vi.fn(),
      env: {},
    });

    await vi.advanceTimersByTimeAsync(15 * 60_000 - 1);
    expect(freshness).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(15 * 60_000 + 1);
    expect(freshness).toHaveBeenCalledTimes(2);
  });

  it('takes its interval from LOCAL_PRICE_FRESHNESS_INTERVAL_MS, is off with 0, and never runs on the sandbox server', async () => {
    const fast = vi.fn(async () => ({}));
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: freshnessLoader(fast),
      log: vi.fn(),
      env: { LOCAL_PRICE_FRESHNESS_INTERVAL_MS: '1000' },
    });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(fast).toHaveBeenCalledTimes(3);
    workers.stop();

    const off = vi.fn(async () => ({}));
    workers = startLocalWorkers({
      stage: 'prod',
      loadHandler: freshnessLoader(off),
      log: vi.fn(),
      env: { LOCAL_PRICE_FRESHNESS_INTERVAL_MS: '0' },
    });
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(off).not.toHaveBeenCalled();
    workers.stop();

    const sandbox = vi.fn(async () => ({}));
    const loadHandler = freshnessLoader(sandbox);
    workers = startLocalWorkers({ stage: 'sandbox', loadHandler, log: vi.fn(), env: {} });
    await workers.warm();
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(sandbox).not.toHaveBeenCalled();
    expect(workers.priceFreshness).toBeUndefined();
    expect(loadHandler.mock.calls.map(([fn]) => fn.name)).not.toContain(PRICE_FRESHNESS.name);
  });
});
