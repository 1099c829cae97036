/**
 * Environment, read once per container. Every Lambda and the local stack's stage servers get
 * these variables; the composition root (shared/wiring) reads them through this module. Besides,
 * the HTTP chain reads `STAGE` alone for anonymous routes (which need no table), and Powertools
 * reads its own `POWERTOOLS_*` variables.
 */
import type { WebhookTargetPolicy } from './url-guard.ts';

export type Stage = 'prod' | 'sandbox';

export interface ServiceConfig {
  stage: Stage;
  /** The stage's own table: fleet data (fleets, vehicles, positions, guidance, events, usage). */
  tableName: string;
  /**
   * The control plane both stages read (docs/keys-and-access.md#the-control-planes-items): accounts, keys, plans and production access, so
   * one company owner manages its test and live keys in one place. Its own table in its own stack.
   */
  controlTableName: string;
  /**
   * The sandbox stage's table, set only where the operator API runs (production): creating a company
   * creates its sandbox twin there.
   */
  sandboxTableName: string | undefined;
  /** HMAC key that makes pagination cursors tamper-evident. */
  cursorSigningKey: string;
  /** Set only locally: DynamoDB Local's URL. */
  dynamoEndpoint: string | undefined;
  region: string;
  /** `embedded` (default) or `amazon-location`. */
  routingEngine: string;
  /**
   * Which webhook receivers the stage delivers to (shared/platform/url-guard.ts). Always `public`
   * inside Lambda (AWS_LAMBDA_FUNCTION_NAME is set there), whatever the environment says, so no
   * deployed stage can be talked into calling its own network. The local stack's stage servers
   * default to `loopback`; WEBHOOK_TARGETS (`npm start -- --webhook-targets`) picks another.
   */
  webhookTargets: WebhookTargetPolicy;
  /** True in the local stack's stage servers (`LOCAL_PIPELINE=1`, outside Lambda): errors may name local switches. */
  localStack: boolean;
}

/**
 * Where the queues and the retry scheduler are (lib/service-environment.ts sets these on every
 * function; the local stack sets `LOCAL_PIPELINE`). Read when a queue is first used, so a function
 * needs only the variables of the queues it sends to.
 */
export const MESSAGING_ENV = {
  deliveriesQueueUrl: 'DELIVERIES_QUEUE_URL',
  deliveriesQueueArn: 'DELIVERIES_QUEUE_ARN',
  deliveriesDeadLetterQueueUrl: 'DELIVERIES_DLQ_URL',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  scheduleGroupName: 'SCHEDULE_GROUP_NAME',
  /** The vehicle-updates queue the guidance worker consumes (sent by locations ingest). */
  vehicleUpdatesQueueUrl: 'VEHICLE_UPDATES_QUEUE_URL',
  /** `1` in the local stack's stage servers: use the in-process adapters registered there. */
  local: 'LOCAL_PIPELINE',
} as const;

/** The stage alone, for code that needs no table (anonymous discovery routes). */
export function currentStage(env: NodeJS.ProcessEnv = process.env): Stage {
  return env.STAGE === 'sandbox' ? 'sandbox' : 'prod';
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    stage: currentStage(env),
    tableName: required(env, 'TABLE_NAME'),
    controlTableName: required(env, 'CONTROL_TABLE_NAME'),
    sandboxTableName: env.SANDBOX_TABLE_NAME || undefined,
    cursorSigningKey: required(env, 'CURSOR_SIGNING_KEY'),
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? 'us-east-1',
    routingEngine: env.ROUTING_ENGINE ?? 'embedded',
    webhookTargets: webhookTargetsOf(env),
    localStack: env[MESSAGING_ENV.local] === '1' && !env.AWS_LAMBDA_FUNCTION_NAME,
  };
}

/** Where the local stack says which webhook receivers it accepts (local/start-options.ts checks the value). */
export const WEBHOOK_TARGETS_ENV = 'WEBHOOK_TARGETS';

function webhookTargetsOf(env: NodeJS.ProcessEnv): WebhookTargetPolicy {
  if (env.AWS_LAMBDA_FUNCTION_NAME || env[MESSAGING_ENV.local] !== '1') return 'public';
  const asked = env[WEBHOOK_TARGETS_ENV];
  if (asked === undefined || asked === '') return 'loopback';
  // Anything unrecognised falls back to the strictest rule rather than to a wider one.
  return asked === 'loopback' || asked === 'private' ? asked : 'public';
}

/**
 * The sandbox stage's public base URL, without a trailing slash: production names it to callers of
 * the sandbox-only routes. Set on production's API functions by lib/fleet-fuel-stack.ts (from the
 * sandbox stack's API) and on the local stack's production server; undefined where not set.
 */
export function sandboxBaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[SANDBOX_BASE_URL_ENV]?.replace(/\/+$/, '') || undefined;
}

export const SANDBOX_BASE_URL_ENV = 'SANDBOX_BASE_URL';

/** The variable's value; a missing one names itself rather than failing later. */
export function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}
