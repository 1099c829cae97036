import { PassThrough } from 'node:stream';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessQueue, type InProcessQueue } from '#local/in-process-queue.ts';
import { createLambdaContext } from '#local/lambda-context.ts';
import { createUsageMeter, sqsBilledRequests, usageSince } from '#local/usage.ts';

const context = (name: string): Context => createLambdaContext(name);

describe('createUsageMeter', () => {
  it('counts invocations, API requests and billed duration per function name', async () => {
    // Prepare
    const meter = createUsageMeter();
    const handler = meter.meter(async (_event: never, _context: Context) => 'done');

    // Act
    await handler({ requestContext: { http: { method: 'POST' } } } as never, context('ingestLocations'));
    await handler({ Records: [] } as never, context('guidanceWorker'));
    await handler({ Records: [] } as never, context('guidanceWorker'));

    // Assess
    const usage = meter.functions();
    expect(usage.ingestLocations).toMatchObject({ invocations: 1, apiRequests: 1 });
    expect(usage.guidanceWorker).toMatchObject({ invocations: 2, apiRequests: 0 });
    // Lambda bills at least 1 ms per invocation.
    expect(usage.guidanceWorker?.billedDurationMs).toBeGreaterThanOrEqual(2);
    // Log bytes are counted only once attributeLogs is called.
    expect(usage.guidanceWorker?.logBytes).toBe(0);
  });

  it('attributes log bytes to the invocation that wrote them, even after an await', async () => {
    // Prepare
    const meter = createUsageMeter();
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    stream.resume?.();
    meter.attributeLogs([stream]);
    const handler = meter.meter(async (_event: never, _context: Context) => {
      stream.write('12345');
      await Promise.resolve();
      stream.write(Buffer.from('678'));
    });

    // Act
    await handler({} as never, context('guidanceWorker'));
    stream.write('outside');

    // Assess
    expect(meter.functions().guidanceWorker?.logBytes).toBe(8);
    expect(meter.unattributedLogBytes()).toBe(7);
  });

  it('usageSince subtracts the earlier snapshot per function and queue', () => {
    // Prepare
    const function_ = { invocations: 5, apiRequests: 5, durationMs: 50, billedDurationMs: 52, logBytes: 500 };
    const queue = {
      messagesSent: 20,
      messagesDone: 18,
      sendRequests: 2,
      receiveRequests: 2,
      deleteRequests: 2,
      billedRequests: 6,
      deadLetters: 1,
    };
    const before = {
      functions: { a: function_ },
      queues: { q: queue },
      unattributedLogBytes: 10,
      memory: { rssBytes: 1, heapUsedBytes: 1 },
    };
    const after = {
      functions: { a: { ...function_, invocations: 7, logBytes: 800 }, b: function_ },
      queues: { q: { ...queue, sendRequests: 5, messagesDone: 20 } },
      unattributedLogBytes: 30,
      memory: { rssBytes: 2, heapUsedBytes: 2 },
    };

    // Act
    const since = usageSince(before, after);

    // Assess
    expect(since.functions.a).toEqual({
      invocations: 2,
      apiRequests: 0,
      durationMs: 0,
      billedDurationMs: 0,
      logBytes: 300,
    });
    expect(since.functions.b).toEqual(function_);
    expect(since.queues.q).toMatchObject({
      sendRequests: 3,
      messagesSent: 0,
      messagesDone: 2,
      deadLetters: 1,
    });
    expect(since.unattributedLogBytes).toBe(20);
  });
});

describe('in-process queue usage, as SQS bills it', () => {
  let queue: InProcessQueue<{ vehicleId: string }> | undefined;
  afterEach(() => {
    queue?.stop();
  });

  it('counts a SendMessageBatch per 10 messages and a receive and a delete per delivered batch', async () => {
    // Prepare
    queue = createInProcessQueue({ name: 'fleet-fuel-prod-vehicle-updates', batchSize: 10 });
    queue.subscribe(async () => undefined);

    // Act
    await queue.send(Array.from({ length: 25 }, (_, index) => ({ vehicleId: `veh_${index}` })));
    await queue.idle();

    // Assess
    expect(queue.usage()).toEqual({
      messagesSent: 25,
      messagesDone: 25,
      sendRequests: 3,
      receiveRequests: 3,
      deleteRequests: 3,
      billedRequests: 9,
      deadLetters: 0,
    });
  });

  it('bills a request per started 64 KB of payload', () => {
    expect(sqsBilledRequests(10)).toBe(1);
    expect(sqsBilledRequests(65_536)).toBe(1);
    expect(sqsBilledRequests(65_537)).toBe(2);
  });
});
