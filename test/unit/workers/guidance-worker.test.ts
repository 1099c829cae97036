import type { SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { createGuidanceWorker } from '#functions/workers/guidance-worker.ts';
import { consumerContext, sqsRecord } from '#test/support/sqs-records.ts';

/** The guidance cycle the worker runs, faked: the worker's own job is batching, ordering and failures. */
const cycle = vi.fn();
const handler = createGuidanceWorker(cycle);

const record = (messageId: string, body: string) => sqsRecord(messageId, body, '1', 'vehicle-updates');
const context = consumerContext('guidanceWorker');

beforeEach(() => {
  cycle.mockReset();
  cycle.mockResolvedValue({ events: [] });
});

describe('the guidance worker handler', () => {
  it('runs one cycle per message and fails only the record whose cycle failed', async () => {
    cycle.mockImplementation(async (message: { vehicleId: string }) => {
      if (message.vehicleId === 'veh_bad') throw new Error('table unreachable');
      return { events: [] };
    });
    const event: SQSEvent = {
      Records: [
        record('m1', JSON.stringify({ fleetId: 'flt_1', vehicleId: 'veh_a' })),
        record('m2', JSON.stringify({ fleetId: 'flt_1', vehicleId: 'veh_bad' })),
        record('m3', JSON.stringify({ fleetId: 'flt_2', vehicleId: 'veh_b' })),
      ],
    };
    const result = await handler(event, context);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(cycle.mock.calls.map((call) => call[0])).toEqual([
      { fleetId: 'flt_1', vehicleId: 'veh_a' },
      { fleetId: 'flt_1', vehicleId: 'veh_bad' },
      { fleetId: 'flt_2', vehicleId: 'veh_b' },
    ]);
  });

  it('runs the cycles of one vehicle one after another, and other vehicles alongside', async () => {
    let active = 0;
    let maxSameVehicle = 0;
    const order: string[] = [];
    cycle.mockImplementation(async (message: { vehicleId: string }) => {
      if (message.vehicleId === 'veh_a') {
        active += 1;
        maxSameVehicle = Math.max(maxSameVehicle, active);
      }
      order.push(`start ${message.vehicleId}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`end ${message.vehicleId}`);
      if (message.vehicleId === 'veh_a') active -= 1;
      return { events: [] };
    });
    const body = (vehicleId: string) => JSON.stringify({ fleetId: 'flt_1', vehicleId });
    const event: SQSEvent = {
      Records: [record('m1', body('veh_a')), record('m2', body('veh_a')), record('m3', body('veh_b'))],
    };
    expect(await handler(event, context)).toEqual({ batchItemFailures: [] });
    expect(maxSameVehicle).toBe(1);
    // veh_b did not wait for veh_a's two cycles.
    expect(order.indexOf('start veh_b')).toBeLessThan(order.lastIndexOf('end veh_a'));
  });

  it('drops malformed messages instead of sending them round again, and passes only the two ids on', async () => {
    const event: SQSEvent = {
      Records: [
        record('m1', 'not json'),
        record('m2', JSON.stringify({ vehicleId: 'veh_a' })),
        record('m3', JSON.stringify({ fleetId: 'flt_1', vehicleId: 'veh_a', extra: 'ignored' })),
      ],
    };
    expect(await handler(event, context)).toEqual({ batchItemFailures: [] });
    expect(cycle).toHaveBeenCalledTimes(1);
    expect(cycle.mock.calls[0]?.[0]).toEqual({ fleetId: 'flt_1', vehicleId: 'veh_a' });
  });

  it("passes on what ingest read and wrote, and leaves out snapshots that are not ingest's", async () => {
    const positions = {
      latest: { latitude: 32.7, longitude: -96.8, recordedAtMs: 1, receivedAtMs: 2 },
      recent: [],
      flushedThroughMs: null,
      version: 4,
    };
    const vehicle = { id: 'veh_a', fleetId: 'flt_1', tankSizeGallons: 150, estimatedMpg: 6.5 };
    const event: SQSEvent = {
      Records: [
        record(
          'm1',
          JSON.stringify({ fleetId: 'flt_1', vehicleId: 'veh_a', positionVersion: 4, positions, vehicle }),
        ),
        // Another vehicle's profile, a version that is no count, a ring that is no list: read instead.
        record(
          'm2',
          JSON.stringify({
            fleetId: 'flt_1',
            vehicleId: 'veh_b',
            positionVersion: -1,
            positions: { ...positions, recent: 'x' },
            vehicle,
          }),
        ),
      ],
    };
    expect(await handler(event, context)).toEqual({ batchItemFailures: [] });
    const messages = cycle.mock.calls.map((call) => call[0]);
    expect(messages).toContainEqual({
      fleetId: 'flt_1',
      vehicleId: 'veh_a',
      positionVersion: 4,
      positions,
      vehicle,
    });
    expect(messages).toContainEqual({ fleetId: 'flt_1', vehicleId: 'veh_b' });

    // Delivered again (it waited a visibility timeout): the snapshots are left out, the version kept.
    cycle.mockClear();
    const again = record(
      'm3',
      JSON.stringify({ fleetId: 'flt_1', vehicleId: 'veh_a', positionVersion: 4, positions, vehicle }),
    );
    again.attributes.ApproximateReceiveCount = '2';
    expect(await handler({ Records: [again] }, context)).toEqual({ batchItemFailures: [] });
    expect(cycle.mock.calls[0]?.[0]).toEqual({ fleetId: 'flt_1', vehicleId: 'veh_a', positionVersion: 4 });
  });
});
