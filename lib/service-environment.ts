import { DELIVERY_PIPELINE_ENV } from '../shared/platform/adapters/delivery-pipeline.ts';
import type { StageSettings } from './stage.ts';

/** The Powertools service name: one name for logs, traces and metrics of every function. */
export const SERVICE_NAME = 'fleet-fuel-guidance';

export interface ServiceEnvironmentProps {
  settings: StageSettings;
  tableName: string;
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
 * Where webhook deliveries go (lib/webhooks.ts), read by shared/platform/adapters/delivery-pipeline.ts.
 * Every function gets it with the rest: the API functions fan events out to the deliveries queue, and
 * the dispatcher also schedules retries and dead-letters exhausted deliveries.
 */
export function deliveryPipelineEnvironment(props: DeliveryPipelineEnvironmentProps): Record<string, string> {
  return {
    [DELIVERY_PIPELINE_ENV.queueUrl]: props.queueUrl,
    [DELIVERY_PIPELINE_ENV.queueArn]: props.queueArn,
    [DELIVERY_PIPELINE_ENV.deadLetterQueueUrl]: props.deadLetterQueueUrl,
    [DELIVERY_PIPELINE_ENV.schedulerRoleArn]: props.schedulerRoleArn,
    [DELIVERY_PIPELINE_ENV.scheduleGroupName]: props.scheduleGroupName,
  };
}

/**
 * Where vehicle updates go (lib/ingest.ts), read by shared/platform/adapters/delivery-pipeline.ts.
 * Every function gets it with the rest; the API functions send to it (locations ingest).
 */
export function vehicleUpdatesEnvironment(props: { queueUrl: string }): Record<string, string> {
  return { [DELIVERY_PIPELINE_ENV.vehicleUpdatesQueueUrl]: props.queueUrl };
}
