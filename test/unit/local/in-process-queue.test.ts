import { createHash } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInProcessQueue, type InProcessQueue } from '#local/in-process-queue.ts';

interface Delivery {
  deliveryId: string;
}

const deliveries = (count: number): Delivery[] =>
  Array.from({ length: count }, (_, index) => ({ deliveryId: `whd_${index}` }));
const bodiesOf = (event: SQSEvent) => event.Records.map((record) => JSON.parse(record.body) as Delivery);

let queue: InProcessQueue<Delivery>;
let events: SQSEvent[];

beforeEach(() => {
  vi.useFakeTimers();
  events = [];
});

afterEach(() => {
  queue?.stop();
  vi.useRealTimers();
});

/** A consumer that records every event and answers with `respond`. */
function recordingConsumer(respond: (event: SQSEvent) => SQSBatchResponse | undefined = () => undefined) {
  return async (event: SQSEvent) => {
    events.push(event);
    return respond(event);
  };
}

describe('createInProcessQueue: delivery', () => {
  it('delivers asynchronously, never inside send, as SQS-shaped records', async () => {
    // Prepare
    queue = createInProcessQueue({ name: 'fleet-fuel-prod-deliveries', region: 'eu-west-1' });
    queue.subscribe(recordingConsumer());

    // Act
    await queue.send([{ deliveryId: 'whd_1' }]);
    const duringSend = events.length;
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(duringSend).toBe(0);
    expect(events).toHaveLength(1);
    const [record] = events[0]?.Records ?? [];
    expect(record).toMatchObject({
      body: '{"deliveryId":"whd_1"}',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:fleet-fuel-prod-deliveries',
      awsRegion: 'eu-west-1',
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()) },
    });
    expect(record?.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(record?.md5OfBody).toBe(createHash('md5').update('{"deliveryId":"whd_1"}').digest('hex'));
  });

  it('batches up to 10 records per consumer call', async () => {
    // Prepare
    queue = createInProcessQueue({ name: 'q' });
    queue.subscribe(recordingConsumer());

    // Act
    await queue.send(deliveries(23));
    await vi.runAllTimersAsync();

    // Assess
    expect(events.map((event) => event.Records.length)).toEqual([10, 10, 3]);
    expect(events.flatMap(bodiesOf)).toEqual(deliveries(23));
  });

  it('keeps messages sent before a consumer subscribes and delivers them once it does', async () => {
    // Prepare
    queue = createInProcessQueue({ name: 'q' });
    await queue.send(deliveries(2));
    await vi.advanceTimersByTimeAsync(10);

    // Act
    queue.subscribe(recordingConsumer());
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(events.flatMap(bodiesOf)).toEqual(deliveries(2));
  });

  it('refuses a second consumer, like one event source mapping per queue', () => {
    queue = createInProcessQueue({ name: 'q' });
    queue.subscribe(recordingConsumer());

    expect(() => queue.subscribe(recordingConsumer())).toThrow(/already has a consumer/);
  });
});

describe('createInProcessQueue: partial batch failures', () => {
  it('delivers only the records named in batchItemFailures again, after the visibility timeout', async () => {
    // Prepare
    queue = createInProcessQueue({ name: 'q', visibilityTimeoutMs: 1_000 });
    queue.subscribe(
      recordingConsumer((event) =>
        events.length === 1
          ? { batchItemFailures: [{ itemIdentifier: event.Records[1]?.messageId ?? '' }] }
          : undefined,
      ),
    );

    // Act
    await queue.send(deliveries(3));
    await vi.advanceTimersByTimeAsync(999);
    const beforeVisibility = events.length;
    await vi.advanceTimersByTimeAsync(1);

    // Assess
    expect(beforeVisibility).toBe(1);
    expect(events).toHaveLength(2);
    expect(bodiesOf(events[1] as SQSEvent)).toEqual([{ deliveryId: 'whd_1' }]);
    expect(events[1]?.Records[0]).toMatchObject({
      messageId: events[0]?.Records[1]?.messageId,
      attributes: { ApproximateReceiveCount: '2' },
    });
  });

  it('delivers the whole batch again when the consumer throws', async () => {
    // Prepare
    const log = vi.fn();
    queue = createInProcessQueue({ name: 'q', log });
    let calls = 0;
    queue.subscribe(async (event) => {
      events.push(event);
      calls += 1;
      if (calls === 1) throw new Error('dispatcher bug');
    });

    // Act
    await queue.send(deliveries(2));
    await vi.runAllTimersAsync();

    // Assess
    expect(events.map(bodiesOf)).toEqual([deliveries(2), deliveries(2)]);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('dispatcher bug'));
  });

  it('treats a failure naming a record not in the batch as a failure of the whole batch, as Lambda does', async () => {
    // Prepare
    queue = createInProcessQueue({ name: 'q' });
    queue.subscribe(
      recordingConsumer(() =>
        events.length === 1 ? { batchItemFailures: [{ itemIdentifier: 'not-a-message-id' }] } : undefined,
      ),
    );

    // Act
    await queue.send(deliveries(2));
    await vi.runAllTimersAsync();

    // Assess
    expect(events.map(bodiesOf)).toEqual([deliveries(2), deliveries(2)]);
  });

  it('moves a record to the dead-letter queue after maxReceiveCount receives', async () => {
    // Prepare
    const log = vi.fn();
    queue = createInProcessQueue({ name: 'q', maxReceiveCount: 5, visibilityTimeoutMs: 1_000, log });
    queue.subscribe(
      recordingConsumer((event) => ({
        batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })),
      })),
    );

    // Act
    await queue.send([{ deliveryId: 'whd_poison' }]);
    await vi.runAllTimersAsync();

    // Assess
    expect(events.map((event) => event.Records[0]?.attributes.ApproximateReceiveCount)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(queue.deadLetterQueue.messages).toEqual([{ deliveryId: 'whd_poison' }]);
    // Its handling is over: a benchmark waiting for the queue to drain stops waiting.
    expect(queue.usage()).toMatchObject({ messagesSent: 1, messagesDone: 1 });
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(/moved to the dead-letter queue after 5 receives/),
    );
  });
});

describe('createInProcessQueue: dead-letter queue, idle and stop', () => {
  it('resolves idle() once every message is consumed, redeliveries included', async () => {
    // Prepare
    vi.useRealTimers();
    queue = createInProcessQueue({ name: 'q', visibilityTimeoutMs: 5 });
    queue.subscribe(
      recordingConsumer((event) =>
        events.length === 1
          ? { batchItemFailures: [{ itemIdentifier: event.Records[0]?.messageId ?? '' }] }
          : undefined,
      ),
    );

    // Act
    await queue.send(deliveries(2));
    await queue.idle();

    // Assess
    expect(events.map(bodiesOf)).toEqual([deliveries(2), [{ deliveryId: 'whd_0' }]]);
  });

  it('keeps what is sent to the dead-letter queue explicitly, as JSON round-trips', async () => {
    queue = createInProcessQueue({ name: 'q' });

    await queue.deadLetterQueue.send([{ deliveryId: 'whd_exhausted' }]);

    expect(queue.deadLetterQueue.messages).toEqual([{ deliveryId: 'whd_exhausted' }]);
  });

  it('drops pending redeliveries on stop and refuses later sends', async () => {
    // Prepare
    queue = createInProcessQueue({ name: 'q' });
    queue.subscribe(
      recordingConsumer((event) => ({
        batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })),
      })),
    );
    await queue.send(deliveries(1));
    await vi.advanceTimersByTimeAsync(0);

    // Act
    queue.stop();
    await vi.advanceTimersByTimeAsync(10_000);

    // Assess
    expect(events).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    await expect(queue.send(deliveries(1))).rejects.toThrow(/stopped/);
  });
});
