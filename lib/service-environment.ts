import { MESSAGING_ENV } from '#shared/platform/config.ts';
import type { StageSettings } from './stage.ts';

/** The Powertools service name: one name for logs, traces and metrics of every function. */
export const SERVICE_NAME = 'fleet-fuel-guidance';

export interface ServiceEnvironmentProps {
  settings: StageSettings;
  tableName: string;
  /** The control plane's table (lib/control-plane-stack.ts), read by both stages. */
  controlTableName: string;
  cursorSigningKey: string;
}

/**
 * Every function's environment, read once per container by shared/platform/config.ts. All functions
 * get all of it, including those of the `public` role group, which never read TABLE_NAME: config reads
 * lazily, and one environment shape is simpler than one per group.
 */
export function serviceEnvironment(props: ServiceEnvironmentProps): Record<string, string> {
  return {
    STAGE: props.settings.stage,
    TABLE_NAME: props.tableName,
    CONTROL_TABLE_NAME: props.controlTableName,
    CURSOR_SIGNING_KEY: props.cursorSigningKey,
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_LOG_LEVEL: props.settings.logLevel,
    ROUTING_ENGINE: props.settings.routingEngine,
  };
}

export interface DeliveryPipelineEnvironmentProps {
  queueUrl: string;
  queueArn: string;
  deadLetterQueueUrl: string;
  schedulerRoleArn: string;
  scheduleGroupName: string;
}

/**
 * Where webhook deliveries go (lib/webhooks.ts), read by shared/wiring/message-queues.ts and
 * shared/webhooks/wiring/retry-scheduler.ts.
 * Every function gets it with the rest: the API functions fan events out to the deliveries queue, and
 * the dispatcher also schedules retries and dead-letters exhausted deliveries.
 */
export function deliveryPipelineEnvironment(props: DeliveryPipelineEnvironmentProps): Record<string, string> {
  return {
    [MESSAGING_ENV.deliveriesQueueUrl]: props.queueUrl,
    [MESSAGING_ENV.deliveriesQueueArn]: props.queueArn,
    [MESSAGING_ENV.deliveriesDeadLetterQueueUrl]: props.deadLetterQueueUrl,
    [MESSAGING_ENV.schedulerRoleArn]: props.schedulerRoleArn,
    [MESSAGING_ENV.scheduleGroupName]: props.scheduleGroupName,
  };
}

/**
 * Where vehicle updates go (lib/ingest.ts), read by shared/wiring/message-queues.ts.
 * Every function gets it with the rest; the API functions send to it (locations ingest).
 */
export function vehicleUpdatesEnvironment(props: { queueUrl: string }): Record<string, string> {
  return { [MESSAGING_ENV.vehicleUpdatesQueueUrl]: props.queueUrl };
}
