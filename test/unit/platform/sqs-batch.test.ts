import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '#shared/platform/observability.ts';
import { sqsBatchHandler } from '#shared/platform/sqs-batch.ts';
import { consumerContext, sqsRecord } from '#test/support/sqs-records.ts';

const record = sqsRecord;
const context = consumerContext('worker');

/** The JSON records the logger wrote while `run` ran (Powertools writes one line per record, errors to stderr). */
async function logRecords(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  const writes = [
    vi.spyOn(process.stdout, 'write').mockImplementation(capture),
    vi.spyOn(process.stderr, 'write').mockImplementation(capture),
  ];
  // The suite silences the logger (vitest.config.ts); these tests read what it writes.
  const level = logger.getLevelName();
  logger.setLogLevel('INFO');
  try {
    await run();
  } finally {
    logger.setLogLevel(level);
    for (const write of writes) write.mockRestore();
  }
  return lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterEach(() => vi.restoreAllMocks());

describe('an SQS batch handler', () => {
  it('logs each failed record with its error, the cause, the message id and the ids it names', async () => {
    const handler = sqsBatchHandler(
      async (r) => {
        const { vehicleId } = JSON.parse(r.body) as { vehicleId: string };
        if (vehicleId !== 'veh_ok') {
          throw new Error(`cycle of ${vehicleId} failed`, {
            cause: Object.assign(new Error('Requested resource not found'), {
              name: 'ResourceNotFoundException',
            }),
          });
        }
      },
      {
        failure: 'Cycle failed',
        idsOf: (r) => ({ vehicleId: (JSON.parse(r.body) as { vehicleId: string }).vehicleId }),
      },
    );
    let result: unknown;
    const logged = await logRecords(async () => {
      result = await handler(
        {
          Records: [
            record('m1', '{"vehicleId":"veh_ok"}'),
            record('m2', '{"vehicleId":"veh_a"}', '3'),
            record('m3', '{"vehicleId":"veh_b"}'),
          ],
        },
        context,
      );
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }] });
    const failures = logged.filter((line) => line.message === 'Cycle failed');
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({
      level: 'ERROR',
      messageId: 'm2',
      receiveCount: 3,
      vehicleId: 'veh_a',
      error: {
        name: 'Error',
        message: 'cycle of veh_a failed',
        cause: { name: 'ResourceNotFoundException', message: 'Requested resource not found' },
      },
    });
    expect(failures[1]).toMatchObject({ messageId: 'm3', vehicleId: 'veh_b' });
  });

  it('still logs every record of a batch that failed whole, and a body too broken to name its ids', async () => {
    const handler = sqsBatchHandler(
      async () => {
        throw new Error('table unreachable');
      },
      {
        failure: 'Attempt failed',
        idsOf: (r) => ({ deliveryId: (JSON.parse(r.body) as { deliveryId: string }).deliveryId }),
      },
    );
    let thrown: unknown;
    const logged = await logRecords(async () => {
      await handler(
        { Records: [record('m1', '{"deliveryId":"dlv_1"}'), record('m2', 'not json')] },
        context,
      ).catch((error: unknown) => {
        thrown = error;
      });
    });
    // Powertools throws when every record failed, so Lambda retries the batch: that error names none of them.
    expect((thrown as Error).message).toMatch(/All records failed processing/);
    const failures = logged.filter((line) => line.message === 'Attempt failed');
    expect(failures.map((line) => [line.messageId, line.deliveryId])).toEqual([
      ['m1', 'dlv_1'],
      ['m2', undefined],
    ]);
    expect(
      failures.every((line) => (line.error as { message: string }).message === 'table unreachable'),
    ).toBe(true);
  });
});
