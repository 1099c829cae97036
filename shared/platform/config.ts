/**
 * Environment, read once per container. Every Lambda and the local stack's stage servers get
 * these variables; nothing else in the code reads process.env.
 */
export type Stage = 'prod' | 'sandbox';

export interface ServiceConfig {
  stage: Stage;
  tableName: string;
  /** HMAC key that makes pagination cursors tamper-evident. */
  cursorSigningKey: string;
  /** Set only locally: DynamoDB Local's URL. */
  dynamoEndpoint: string | undefined;
  region: string;
  /** `embedded` (default) or `amazon-location`. */
  routingEngine: string;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS=1 lets local development deliver to http and loopback receivers.
   * Ignored inside Lambda (AWS_LAMBDA_FUNCTION_NAME is set there), so no deployed stage can be
   * talked into calling its own network.
   */
  allowPrivateWebhookTargets: boolean;
}

/** The stage alone, for code that needs no table (anonymous discovery routes). */
export function currentStage(env: NodeJS.ProcessEnv = process.env): Stage {
  return env.STAGE === 'sandbox' ? 'sandbox' : 'prod';
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    stage: currentStage(env),
    tableName: required(env, 'TABLE_NAME'),
    cursorSigningKey: required(env, 'CURSOR_SIGNING_KEY'),
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? 'us-east-1',
    routingEngine: env.ROUTING_ENGINE ?? 'embedded',
    allowPrivateWebhookTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1' && !env.AWS_LAMBDA_FUNCTION_NAME,
  };
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

let cached: ServiceConfig | undefined;

/** The container's configuration (memoised: env does not change within a container). */
export function config(): ServiceConfig {
  cached ??= readConfig();
  return cached;
}
