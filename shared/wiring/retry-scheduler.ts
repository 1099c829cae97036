import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { DeliveryMessage } from '../domain/webhooks/delivery.ts';
import { createEventBridgeScheduler } from '../platform/adapters/eventbridge-scheduler.ts';
import { MESSAGING_ENV, required } from '../platform/config.ts';
import type { OneTimeScheduler } from '../platform/ports/scheduler.ts';
import type { Infrastructure } from './infrastructure.ts';
import { registered } from './message-queues.ts';
import { once } from './once.ts';

/**
 * Brings a failed delivery back to the deliveries queue later: EventBridge Scheduler one-time
 * schedules in `SCHEDULE_GROUP_NAME`, sent to `DELIVERIES_QUEUE_ARN` as `SCHEDULER_ROLE_ARN`; or,
 * with `LOCAL_PIPELINE=1`, the local stack's timers (looked up when a retry is scheduled).
 *
 * @example
 * await createDeliveryRetries().scheduleOnce(`${deliveryId}-attempt-${attempt}`, at, message);
 */
export function createDeliveryRetries(
  env: NodeJS.ProcessEnv = process.env,
): OneTimeScheduler<DeliveryMessage> {
  if (env[MESSAGING_ENV.local] === '1') {
    return {
      scheduleOnce: async (name, at, message) => registered('scheduler').scheduleOnce(name, at, message),
    };
  }
  return createEventBridgeScheduler<DeliveryMessage>({
    queueArn: required(env, MESSAGING_ENV.deliveriesQueueArn),
    roleArn: required(env, MESSAGING_ENV.schedulerRoleArn),
    groupName: required(env, MESSAGING_ENV.scheduleGroupName),
    client: new SchedulerClient({ maxAttempts: 3 }),
  });
}

/** The container's retry scheduler, from the environment, built on first use. */
const environmentRetries = /* @__PURE__ */ once(() => createDeliveryRetries());

/** The retry scheduler an infrastructure uses: its own (tests), else the environment's. */
export function deliveryRetriesOf(
  infra: Pick<Infrastructure, 'deliveryRetries'>,
): OneTimeScheduler<DeliveryMessage> {
  return infra.deliveryRetries ?? environmentRetries();
}
