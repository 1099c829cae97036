export interface RecurringJobOptions {
  /** Names the job in log lines, e.g. `offline sweep`. */
  name: string;
  /** Time between runs; the first run is one interval after the start, as with a new rate() schedule. */
  intervalMs: number;
  /**
   * Also run once this long after the start, before the first interval has passed (the sandbox tick,
   * so the local twin's trucks move within seconds of `npm start`). Default: no early run.
   */
  firstRunAfterMs?: number;
  /** One run. Its result is ignored; a rejection is logged. */
  run: () => Promise<unknown>;
  /** One line per failed or skipped run; never a stack trace, never a crash. */
  log: (line: string) => void;
}

export interface RecurringJob {
  /** Resolves when the run in progress (if any) has settled; tests await it. */
  idle(): Promise<void>;
  /** No further runs; one in progress finishes on its own. */
  stop(): void;
}

/**
 * The local stack's EventBridge Scheduler `rate(…)` schedule: runs `run` every `intervalMs`. A run
 * still going when the next is due is not doubled up (that run is skipped and says so), and a failed
 * run is logged in one line and waits for the next tick, so a broken job never takes the server down.
 * The timer is unref'd, so it never keeps a process alive on its own.
 *
 * @example
 * const sweep = startRecurringJob({ name: 'offline sweep', intervalMs: 60_000, run, log: console.error });
 * sweep.stop();
 */
export function startRecurringJob(options: RecurringJobOptions): RecurringJob {
  if (!Number.isFinite(options.intervalMs) || options.intervalMs <= 0) {
    throw new RangeError(`${options.name}: the interval must be a positive number of ms`);
  }
  let running: Promise<void> | undefined;

  const tick = () => {
    if (running) {
      options.log(`${options.name}: the previous run is still going; skipped this one`);
      return;
    }
    running = Promise.resolve()
      .then(options.run)
      .then(
        () => undefined,
        (error: unknown) => options.log(`${options.name} failed: ${describe(error)}`),
      )
      .finally(() => {
        running = undefined;
      });
  };

  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  const early =
    options.firstRunAfterMs !== undefined && options.firstRunAfterMs < options.intervalMs
      ? setTimeout(tick, options.firstRunAfterMs)
      : undefined;
  early?.unref();

  return {
    idle: () => running ?? Promise.resolve(),
    stop: () => {
      clearInterval(timer);
      clearTimeout(early);
    },
  };
}

/** A message only: a job's stack trace every minute would bury the server's log. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0] ?? '';
}
