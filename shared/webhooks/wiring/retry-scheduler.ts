import { boundedClientConfig } from '#shared/platform/adapters/aws-call-limits.ts';
import { MESSAGING_ENV, required } from '#shared/platform/config.ts';
import type { OneTimeScheduler } from '#shared/platform/ports/scheduler.ts';
import type { Infrastructure } from '#shared/wiring/infrastructure.ts';
import { registered } from '#shared/wiring/message-queues.ts';
import { once } from '#shared/wiring/once.ts';
import type { DeliveryMessage } from '../domain/delivery.ts';

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
  const options = {
    queueArn: required(env, MESSAGING_ENV.deliveriesQueueArn),
    roleArn: required(env, MESSAGING_ENV.schedulerRoleArn),
    groupName: required(env, MESSAGING_ENV.scheduleGroupName),
  };
  // The Scheduler client and adapter are imported on the first retry (~15 KB of a cold start that
  // most requests never use); in a Lambda bundle they are a lazy chunk (scripts/bundle-functions.ts).
  const scheduler = once(async () => {
    const [{ SchedulerClient }, { createEventBridgeScheduler }] = await Promise.all([
      import('@aws-sdk/client-scheduler'),
      import('#shared/platform/adapters/eventbridge-scheduler.ts'),
    ]);
    return createEventBridgeScheduler<DeliveryMessage>({
      ...options,
      client: new SchedulerClient(boundedClientConfig()),
    });
  });
  return { scheduleOnce: async (name, at, message) => (await scheduler()).scheduleOnce(name, at, message) };
}

/** The container's retry scheduler, from the environment, built on first use. */
const environmentRetries = /* @__PURE__ */ once(() => createDeliveryRetries());

/** The retry scheduler an infrastructure uses: its own (tests), else the environment's. */
export function deliveryRetriesOf(
  infra: Pick<Infrastructure, 'deliveryRetries'>,
): OneTimeScheduler<DeliveryMessage> {
  return infra.deliveryRetries ?? environmentRetries();
}
