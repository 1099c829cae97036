import { describe, expect, it, vi } from 'vitest';
import { oneAtATimePerKey, sqsKeyedBatchHandler } from '#shared/platform/sqs-keyed-batch.ts';
import { consumerContext, sqsRecord } from '#test/support/sqs-records.ts';

const record = sqsRecord;
const context = consumerContext('worker');

/** A promise the test settles by hand, so the order of events never depends on timers. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('one at a time per key', () => {
  it('starts the next task of a key only when the one before has settled, and other keys at once', async () => {
    const run = oneAtATimePerKey();
    const started: string[] = [];
    const a1 = gate();
    const task =
      (name: string, until: Promise<void> = Promise.resolve()) =>
      async () => {
        started.push(name);
        await until;
        return name;
      };
    const first = run('a', task('a1', a1.promise));
    const second = run('a', task('a2'));
    const other = run('b', task('b1'));
    expect(await other).toBe('b1');
    expect(started).toEqual(['a1', 'b1']);
    a1.open();
    expect(await Promise.all([first, second])).toEqual(['a1', 'a2']);
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('fails only the caller of a failed task; the next task of its key still runs', async () => {
    const run = oneAtATimePerKey();
    const poison = gate();
    const failed = run('a', () => poison.promise);
    const next = run('a', async () => 'ran');
    poison.fail(new Error('table unreachable'));
    await expect(failed).rejects.toThrow('table unreachable');
    expect(await next).toBe('ran');
  });
});

describe('a keyed SQS batch handler', () => {
  const keyed = (process: (message: { key: string; n: number }) => Promise<void>) => {
    const parse = vi.fn((body: string, _receiveCount: number) => {
      const message = JSON.parse(body) as { key?: string; n: number };
      return message.key ? { key: message.key, n: message.n } : null;
    });
    const handler = sqsKeyedBatchHandler({
      parse,
      keyOf: (message) => message.key,
      process,
      dropped: 'Dropped',
      failure: 'Failed',
      idsOf: () => ({}),
    });
    return { handler, parse };
  };
  const body = (key: string | undefined, n: number) => JSON.stringify({ key, n });

  it('runs a key’s messages in batch order, reports only the failed record and drops malformed ones', async () => {
    const processed: string[] = [];
    const { handler, parse } = keyed(async ({ key, n }) => {
      processed.push(`${key}${n}`);
      if (key === 'a' && n === 2) throw new Error('cycle failed');
    });
    const result = await handler(
      {
        Records: [
          record('m1', body('a', 1)),
          record('m2', body('a', 2), '4'),
          record('m3', body(undefined, 0)),
          record('m4', body('b', 1)),
          record('m5', body('a', 3)),
        ],
      },
      context,
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(processed.filter((name) => name.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(processed).toContain('b1');
    expect(processed).toHaveLength(4);
    // The receive count reaches the parser: a redelivered message may be read differently.
    expect(parse.mock.calls.map(([, receiveCount]) => receiveCount)).toEqual([1, 4, 1, 1, 1]);
  });

  it('does not hold one key’s messages behind another key’s slow one', async () => {
    const slow = gate();
    const started: string[] = [];
    const { handler } = keyed(async ({ key, n }) => {
      started.push(`${key}${n}`);
      if (key === 'a') await slow.promise;
    });
    const done = handler({ Records: [record('m1', body('a', 1)), record('m2', body('b', 1))] }, context);
    await vi.waitFor(() => expect(started).toEqual(['a1', 'b1']));
    slow.open();
    expect(await done).toEqual({ batchItemFailures: [] });
  });
});
