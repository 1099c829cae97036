import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_DISPATCHER } from '../../../lib/worker-functions.ts';
import { type LocalWorkers, startLocalWorkers } from '../../../local/workers.ts';
import {
  deadLetterQueue,
  deliveryQueue,
  resetDeliveryPipeline,
  retryScheduler,
} from '../../../shared/platform/adapters/delivery-pipeline.ts';

const localEnv = { LOCAL_PIPELINE: '1' };
const start = Date.UTC(2026, 10, 21, 12, 0, 0);

let workers: LocalWorkers | undefined;
let invocations: { event: SQSEvent; context: Context }[];

beforeEach(() => {
  vi.useFakeTimers({ now: start });
  resetDeliveryPipeline();
  invocations = [];
});

afterEach(() => {
  workers?.stop();
  workers = undefined;
  vi.useRealTimers();
});

/** A loader that serves `dispatcher` for the dispatcher module and nothing else. */
function loaderFor(dispatcher: (event: SQSEvent, context: Context) => Promise<unknown>) {
  return vi.fn(async (modulePath: string) => {
    if (modulePath !== WEBHOOK_DISPATCHER.handler) throw new Error(`unexpected module ${modulePath}`);
    return dispatcher as (event: never, context: Context) => unknown;
  });
}

const recordingDispatcher = async (event: SQSEvent, context: Context) => {
  invocations.push({ event, context });
  return { batchItemFailures: [] };
};

describe('startLocalWorkers', () => {
  it('registers the in-process pipeline, so deliveryQueue() reaches the dispatcher as an SQS event', async () => {
    // Prepare
    const loadHandler = loaderFor(recordingDispatcher);
    workers = startLocalWorkers({ stage: 'prod', region: 'us-east-1', loadHandler, log: vi.fn() });

    // Act
    await deliveryQueue(localEnv).send([{ deliveryId: 'whd_1' }]);
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
    await retryScheduler(localEnv).scheduleOnce('whd_1-attempt-2', new Date(start + 5_000), {
      deliveryId: 'whd_1',
    });
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

    await deadLetterQueue(localEnv).send([{ deliveryId: 'whd_exhausted' }]);

    expect(workers.queue.deadLetterQueue.messages).toEqual([{ deliveryId: 'whd_exhausted' }]);
  });

  it('starts without the dispatcher module and says so in one line when warmed', async () => {
    // Prepare
    const log = vi.fn();
    const missing = Object.assign(
      new Error(`Cannot find module '/repo/${WEBHOOK_DISPATCHER.handler}' imported from /repo/local/`),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    workers = startLocalWorkers({ stage: 'prod', loadHandler: vi.fn().mockRejectedValue(missing), log });

    // Act
    await workers.warm();

    // Assess
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(
      `webhook dispatcher ${WEBHOOK_DISPATCHER.handler} not found; webhook deliveries fail until it exists`,
    );
  });

  it('stops its timers on stop', async () => {
    workers = startLocalWorkers({ stage: 'prod', loadHandler: loaderFor(recordingDispatcher), log: vi.fn() });
    await retryScheduler(localEnv).scheduleOnce('later', new Date(start + 60_000), { deliveryId: 'whd_1' });

    workers.stop();

    expect(vi.getTimerCount()).toBe(0);
  });
});
