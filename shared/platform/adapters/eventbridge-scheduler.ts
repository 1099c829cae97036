import { createHash } from 'node:crypto';
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { type Clock, systemClock } from '#shared/kernel/time.ts';
import type { OneTimeScheduler } from '../ports/scheduler.ts';
import { boundedClientConfig } from './aws-call-limits.ts';

/** Scheduler's name rules: 1–64 characters of `[0-9a-zA-Z-_.]`. */
export const SCHEDULE_NAME_MAX_LENGTH = 64;

/**
 * A name Scheduler accepts: other characters become `-`; a longer name keeps its start and ends in a
 * hash of the whole name, so two long names that differ only at the end stay two schedules.
 *
 * @example
 * scheduleName('whd_01JD…-attempt-3'); // unchanged
 * scheduleName('a/b'); // 'a-b'
 */
export function scheduleName(name: string): string {
  const safe = name.replace(/[^0-9a-zA-Z_.-]/g, '-') || '-';
  if (safe.length <= SCHEDULE_NAME_MAX_LENGTH) return safe;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${safe.slice(0, SCHEDULE_NAME_MAX_LENGTH - hash.length - 1)}-${hash}`;
}

/**
 * The body of an `at()` expression: `YYYY-MM-DDTHH:MM:SS` in UTC. Scheduler takes whole seconds, so
 * the time is rounded up: a retry never fires before the time it was promised for.
 */
export function atExpression(at: Date): string {
  const seconds = Math.ceil(at.getTime() / 1000);
  return `at(${new Date(seconds * 1000).toISOString().slice(0, 19)})`;
}

export interface EventBridgeSchedulerOptions {
  /** The deliveries queue: the schedule's target. */
  queueArn: string;
  /** The role Scheduler assumes to send to the queue (sqs:SendMessage on it, nothing else). */
  roleArn: string;
  /** The stage's schedule group; the dispatcher may create schedules in it only. */
  groupName: string;
  client?: SchedulerClient;
  /** Default: the system clock. */
  clock?: Clock;
}

/**
 * Lead time for a time that has already passed (a retry computed late, a slow call). What Scheduler
 * does with an `at()` in the past is not documented; a time just ahead of now is a schedule that fires.
 */
const MINIMUM_LEAD_MS = 1_000;

/**
 * A {@link OneTimeScheduler} on EventBridge Scheduler: one `at()` schedule per retry, in UTC, with no
 * flexible window, deleted by Scheduler once it has fired. Its target is the deliveries queue, with
 * the message as the SQS body. Scheduler fires within the minute after `at` (its documented
 * precision), and retries a failed send to SQS itself (its default retry policy, up to 24 hours).
 *
 * Creating a name that exists already answers ConflictException; that is the same retry scheduled by
 * a redelivered message, so it counts as done.
 *
 * @example
 * const scheduler = createEventBridgeScheduler<DeliveryMessage>({ queueArn, roleArn, groupName });
 * await scheduler.scheduleOnce('whd_01JD…-attempt-3', new Date(Date.now() + 300_000), message);
 */
export function createEventBridgeScheduler<T>(options: EventBridgeSchedulerOptions): OneTimeScheduler<T> {
  const client = options.client ?? new SchedulerClient(boundedClientConfig());
  const clock = options.clock ?? systemClock;

  return {
    async scheduleOnce(name, at, message) {
      const fireAt = Math.max(at.getTime(), clock.now() + MINIMUM_LEAD_MS);
      try {
        await client.send(
          new CreateScheduleCommand({
            Name: scheduleName(name),
            GroupName: options.groupName,
            ScheduleExpression: atExpression(new Date(fireAt)),
            ScheduleExpressionTimezone: 'UTC',
            FlexibleTimeWindow: { Mode: 'OFF' },
            ActionAfterCompletion: 'DELETE',
            Target: { Arn: options.queueArn, RoleArn: options.roleArn, Input: JSON.stringify(message) },
          }),
        );
      } catch (error) {
        if (error instanceof ConflictException || (error as Error).name === 'ConflictException') return;
        throw error;
      }
    },
  };
}
