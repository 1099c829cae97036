import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RecurringJob, startRecurringJob } from '#local/recurring-job.ts';

const start = Date.UTC(2026, 10, 21, 12, 0, 0);
let job: RecurringJob | undefined;

beforeEach(() => {
  vi.useFakeTimers({ now: start });
});

afterEach(() => {
  job?.stop();
  job = undefined;
  vi.useRealTimers();
});

describe('startRecurringJob', () => {
  it('runs once per interval, the first one interval after the start', async () => {
    // Prepare
    const runs: number[] = [];
    job = startRecurringJob({
      name: 'offline sweep',
      intervalMs: 60_000,
      run: async () => runs.push(Date.now() - start),
      log: vi.fn(),
    });

    // Act
    await vi.advanceTimersByTimeAsync(59_999);
    const early = runs.length;
    await vi.advanceTimersByTimeAsync(1 + 2 * 60_000);

    // Assess
    expect(early).toBe(0);
    expect(runs).toEqual([60_000, 120_000, 180_000]);
  });

  it('skips a run while the previous one is still going, and says so', async () => {
    // Prepare
    const log = vi.fn();
    let finish: () => void = () => {};
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    job = startRecurringJob({ name: 'offline sweep', intervalMs: 1_000, run, log });

    // Act
    await vi.advanceTimersByTimeAsync(2_000);
    const whileRunning = run.mock.calls.length;
    finish();
    await job.idle();
    await vi.advanceTimersByTimeAsync(1_000);

    // Assess
    expect(whileRunning).toBe(1);
    expect(log).toHaveBeenCalledExactlyOnceWith(
      'offline sweep: the previous run is still going; skipped this one',
    );
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('logs a failed run in one line and keeps running', async () => {
    // Prepare
    const log = vi.fn();
    const run = vi
      .fn<() => Promise<unknown>>()
      .mockRejectedValueOnce(new Error('table not found\n    at somewhere (file.ts:1:1)'))
      .mockImplementationOnce(() => {
        throw 'not even an Error';
      })
      .mockResolvedValue({ markedOffline: 0 });
    job = startRecurringJob({ name: 'offline sweep', intervalMs: 10, run, log });

    // Act
    await vi.advanceTimersByTimeAsync(30);

    // Assess
    expect(run).toHaveBeenCalledTimes(3);
    expect(log.mock.calls).toEqual([
      ['offline sweep failed: table not found'],
      ['offline sweep failed: not even an Error'],
    ]);
  });

  it('leaves no timer behind once stopped, and none that keeps the process alive before', async () => {
    // Prepare
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const run = vi.fn(async () => {});
    job = startRecurringJob({ name: 'offline sweep', intervalMs: 1_000, run, log: vi.fn() });
    const timer = setInterval.mock.results[0]?.value as NodeJS.Timeout;

    // Act
    job.stop();
    await vi.advanceTimersByTimeAsync(5_000);

    // Assess
    expect(timer.hasRef()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(run).not.toHaveBeenCalled();
    setInterval.mockRestore();
  });

  it('refuses an interval that is not a positive number of ms', () => {
    const start = (intervalMs: number) => () =>
      startRecurringJob({ name: 'offline sweep', intervalMs, run: async () => {}, log: vi.fn() });

    expect(start(0)).toThrow(RangeError);
    expect(start(Number.NaN)).toThrow(RangeError);
  });
});
