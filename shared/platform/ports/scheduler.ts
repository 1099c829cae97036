/**
 * Brings a message back later: EventBridge Scheduler one-time schedules when deployed
 * (shared/platform/adapters/eventbridge-scheduler.ts), timers in the local stack
 * (local/in-process-scheduler.ts). Either way the message lands on the deliveries queue, the queue
 * the webhook dispatcher consumes.
 *
 * @example
 * await deliveryRetriesOf(infra).scheduleOnce(`${deliveryId}-attempt-3`, nextAttemptAt, message); // shared/wiring
 */
export interface OneTimeScheduler<T> {
  /**
   * At `at` (or soon after: Scheduler fires within the minute), `message` is sent to the queue.
   * `name` identifies this one firing: scheduling the same name again while it is pending is a no-op,
   * so a redelivered message that schedules its retry twice still produces one retry. Characters
   * outside `[0-9A-Za-z._-]` are replaced and long names shortened by the adapter.
   */
  scheduleOnce(name: string, at: Date, message: T): Promise<void>;
}
