import type { MessageQueue } from '#shared/platform/ports/queue.ts';
import type { OneTimeScheduler } from '#shared/platform/ports/scheduler.ts';

export interface InProcessSchedulerOptions<T> {
  /** Where fired messages go: the local deliveries queue. */
  queue: MessageQueue<T>;
  /** One line when a fired message cannot be sent. Default: silent. */
  log?: (line: string) => void;
}

export interface InProcessScheduler<T> extends OneTimeScheduler<T> {
  /** Names scheduled and not fired yet. */
  readonly pending: ReadonlySet<string>;
  /** Cancels everything pending; later calls reject. */
  stop(): void;
}

/** setTimeout's limit (about 24.8 days); a longer delay would fire at once, so it is waited out in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The local stack's EventBridge Scheduler: one timer per name, which sends the message to the queue
 * at `at` (at once if `at` has passed). As with the deployed adapter, a name that is still pending
 * is not scheduled twice. Timers are unref'd, so pending retries never keep a process alive.
 *
 * @example
 * const scheduler = createInProcessScheduler({ queue });
 * await scheduler.scheduleOnce('whd_…-attempt-2', new Date(Date.now() + 5_000), message);
 */
export function createInProcessScheduler<T>(options: InProcessSchedulerOptions<T>): InProcessScheduler<T> {
  const log = options.log ?? (() => {});
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  const arm = (name: string, fireAt: number, message: T) => {
    const wait = Math.max(0, fireAt - Date.now());
    const timer = setTimeout(
      () => {
        if (wait > MAX_TIMER_MS) return arm(name, fireAt, message);
        timers.delete(name);
        options.queue.send([message]).catch((error: unknown) => {
          log(
            `scheduled message ${name} could not be sent: ${error instanceof Error ? error.message : error}`,
          );
        });
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    timer.unref();
    timers.set(name, timer);
  };

  return {
    get pending() {
      return new Set(timers.keys());
    },
    async scheduleOnce(name, at, message) {
      if (stopped) throw new Error('The in-process scheduler is stopped');
      if (timers.has(name)) return;
      // Scheduler keeps the message as JSON from this moment; a later change by the caller must not show.
      arm(name, at.getTime(), JSON.parse(JSON.stringify(message)) as T);
    },
    stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
