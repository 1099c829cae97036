import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInProcessScheduler, type InProcessScheduler } from '#local/in-process-scheduler.ts';
import type { MessageQueue } from '#shared/platform/ports/queue.ts';

interface Delivery {
  deliveryId: string;
  attempt: number;
}

const start = Date.UTC(2026, 10, 21, 12, 0, 0);
let sent: Delivery[][];
let queue: MessageQueue<Delivery>;
let scheduler: InProcessScheduler<Delivery>;

beforeEach(() => {
  vi.useFakeTimers({ now: start });
  sent = [];
  queue = {
    send: vi.fn(async (messages: readonly Delivery[]) => {
      sent.push([...messages]);
    }),
  };
});

afterEach(() => {
  scheduler?.stop();
  vi.useRealTimers();
});

describe('createInProcessScheduler', () => {
  it('sends the message to the queue at `at`, not before', async () => {
    // Prepare
    scheduler = createInProcessScheduler({ queue });

    // Act
    await scheduler.scheduleOnce('whd_1-attempt-2', new Date(start + 5_000), {
      deliveryId: 'whd_1',
      attempt: 2,
    });
    await vi.advanceTimersByTimeAsync(4_999);
    const early = sent.length;
    await vi.advanceTimersByTimeAsync(1);

    // Assess
    expect(early).toBe(0);
    expect(sent).toEqual([[{ deliveryId: 'whd_1', attempt: 2 }]]);
    expect(scheduler.pending.size).toBe(0);
  });

  it('sends at once when `at` has passed', async () => {
    scheduler = createInProcessScheduler({ queue });

    await scheduler.scheduleOnce('late', new Date(start - 60_000), { deliveryId: 'whd_1', attempt: 3 });
    await vi.advanceTimersByTimeAsync(0);

    expect(sent).toEqual([[{ deliveryId: 'whd_1', attempt: 3 }]]);
  });

  it('schedules a pending name once, like a schedule that already exists', async () => {
    // Prepare
    scheduler = createInProcessScheduler({ queue });
    const message = { deliveryId: 'whd_1', attempt: 2 };

    // Act
    await scheduler.scheduleOnce('whd_1-attempt-2', new Date(start + 1_000), message);
    await scheduler.scheduleOnce('whd_1-attempt-2', new Date(start + 2_000), message);
    await vi.advanceTimersByTimeAsync(5_000);

    // Assess
    expect(sent).toHaveLength(1);
  });

  it('keeps the message as it was when scheduled', async () => {
    scheduler = createInProcessScheduler({ queue });
    const message = { deliveryId: 'whd_1', attempt: 2 };

    await scheduler.scheduleOnce('snapshot', new Date(start + 1_000), message);
    message.attempt = 99;
    await vi.advanceTimersByTimeAsync(1_000);

    expect(sent).toEqual([[{ deliveryId: 'whd_1', attempt: 2 }]]);
  });

  it('waits out delays beyond setTimeout’s 24.8-day limit instead of firing at once', async () => {
    scheduler = createInProcessScheduler({ queue });
    const thirtyDays = 30 * 24 * 3_600_000;

    await scheduler.scheduleOnce('far', new Date(start + thirtyDays), { deliveryId: 'whd_1', attempt: 8 });
    await vi.advanceTimersByTimeAsync(thirtyDays - 1);
    const early = sent.length;
    await vi.advanceTimersByTimeAsync(1);

    expect(early).toBe(0);
    expect(sent).toHaveLength(1);
  });

  it('logs a send that fails instead of throwing from a timer', async () => {
    // Prepare
    const log = vi.fn();
    scheduler = createInProcessScheduler({
      queue: { send: async () => Promise.reject(new Error('queue stopped')) },
      log,
    });

    // Act
    await scheduler.scheduleOnce('whd_1-attempt-2', new Date(start), { deliveryId: 'whd_1', attempt: 2 });
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(log).toHaveBeenCalledWith('scheduled message whd_1-attempt-2 could not be sent: queue stopped');
  });

  it('cancels pending timers on stop and refuses later schedules', async () => {
    // Prepare
    scheduler = createInProcessScheduler({ queue });
    await scheduler.scheduleOnce('a', new Date(start + 1_000), { deliveryId: 'whd_1', attempt: 2 });

    // Act
    scheduler.stop();
    await vi.advanceTimersByTimeAsync(10_000);

    // Assess
    expect(sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    await expect(
      scheduler.scheduleOnce('b', new Date(start), { deliveryId: 'whd_1', attempt: 3 }),
    ).rejects.toThrow(/stopped/);
  });
});
