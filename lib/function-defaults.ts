import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { removalPolicyFor } from './removal.ts';

/**
 * The house defaults, pinned once for every function: routes, workers and jobs.
 * - ARM64 (Graviton): about 20% cheaper per GB-second than x86 for the same Node code.
 * - 512 MB: Lambda's CPU share grows with memory (a full vCPU at 1,769 MB), and a cold start here is
 *   CPU-bound: loading a bundle of several hundred KB and building its zod schemas. 512 MB (~0.3 vCPU)
 *   makes that several times faster than 128 MB, and as billing is per GB-second, a request that
 *   finishes sooner costs about the same. A route that needs more (the
 *   fuel-plan optimizer) overrides `memorySize`.
 * - Active X-Ray tracing, for Powertools Tracer's segments around DynamoDB calls.
 * - One month of logs: long enough to investigate an integrator's report, short enough to stay cheap.
 */
export const FUNCTION_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: 512,
  /**
   * HTTP functions: API Gateway gives up after 30 s anyway; 10 s bounds a stuck dependency while
   * leaving room for routing and the fuel plan.
   */
  httpTimeout: Duration.seconds(10),
  tracing: Tracing.ACTIVE,
  logRetention: RetentionDays.ONE_MONTH,
} as const;

export interface ServiceFunctionProps {
  /** The bundle's folder name under `functionsDir` (the route's operationId). */
  name: string;
  /** `dist/functions`, as written by scripts/bundle-functions.ts. */
  functionsDir: string;
  role: IRole;
  environment: Record<string, string>;
  /** Log groups are named `<logPrefix>/<name>`, the prefix the execution roles may write to. */
  logPrefix: string;
  /**
   * A log group shared with other functions (the API's functions share one per feature, which keeps
   * the stack well below CloudFormation's resource limit); absent: the function gets its own.
   */
  logGroup?: ILogGroup;
  retainLogs: boolean;
  description?: string;
  /** By kind of function: FUNCTION_DEFAULTS.httpTimeout for routes; workers and jobs choose their own. */
  timeout: Duration;
  memorySize?: number;
}

/** A Lambda function running one pre-built bundle, with a stack-made log group and the house defaults. */
export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly logGroup: ILogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    // Created by the stack, not by Lambda on first write: retention and removal are then ours to set,
    // and the execution role needs no logs:CreateLogGroup.
    this.logGroup =
      props.logGroup ??
      new LogGroup(this, 'Logs', {
        logGroupName: `${props.logPrefix}/${props.name}`,
        retention: FUNCTION_DEFAULTS.logRetention,
        removalPolicy: removalPolicyFor(props.retainLogs),
      });
    this.function = new LambdaFunction(this, 'Function', {
      code: Code.fromAsset(join(props.functionsDir, props.name)),
      handler: 'index.handler',
      runtime: FUNCTION_DEFAULTS.runtime,
      architecture: FUNCTION_DEFAULTS.architecture,
      memorySize: props.memorySize ?? FUNCTION_DEFAULTS.memorySize,
      timeout: props.timeout,
      tracing: FUNCTION_DEFAULTS.tracing,
      role: props.role,
      logGroup: this.logGroup,
      environment: props.environment,
      description: props.description,
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x is pinned on purpose: the bundles are built for target node22 and tested on the Node ' +
        'line our tools support; moving to a newer runtime is a deliberate upgrade of both together.',
    });
  }
}
