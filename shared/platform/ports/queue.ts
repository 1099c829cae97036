/**
 * A queue that carries messages to a worker: SQS when deployed (shared/platform/adapters/sqs-queue.ts),
 * an in-process queue in the local stack (local/in-process-queue.ts).
 *
 * Messages travel as JSON bodies, so `T` must survive `JSON.stringify` → `JSON.parse` unchanged (no
 * Dates, Maps or undefined-valued fields the consumer relies on). Delivery is at least once: a
 * consumer sees a message again after a failure or a redelivery, so it must be idempotent.
 *
 * @example
 * const queue: MessageQueue<VehicleUpdateMessage> = queuesOf(infra).vehicleUpdates(); // shared/wiring
 * await queue.send([{ fleetId: 'flt_…', vehicleId: 'veh_…' }]);
 */
export interface MessageQueue<T> {
  /**
   * Sends every message, in batches of any size. Resolves once all are accepted; rejects if any
   * could not be sent (some others may have been sent already: callers retry the whole call and
   * rely on the consumer's idempotency).
   */
  send(messages: readonly T[]): Promise<void>;
}
