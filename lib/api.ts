import { Duration, NestedStack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RoleGroup, RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { ingestLocationsOperation } from '#shared/tracking/api/operations.ts';
import type { ExecutionRoles } from './execution-roles.ts';
import { FUNCTION_DEFAULTS, ServiceFunction } from './function-defaults.ts';
import { removalPolicyFor } from './removal.ts';
import type { StageSettings } from './stage.ts';

export interface ApiProps {
  settings: StageSettings;
  /** The route table: one function and one route per entry, nothing listed by hand. */
  routes: readonly RouteDefinition[];
  /** Serves API Gateway's `$default` route: everything no entry matches. */
  fallback: { operationId: string; role: RoleGroup };
  functionsDir: string;
  roles: ExecutionRoles;
  environment: Record<string, string>;
  logGroupNames: { functionPrefix: string; access: string };
  /**
   * The operator API (production only): its routes behind API Gateway's IAM authorizer (SigV4),
   * its functions with their own environment (the sandbox table, OPERATOR_AUTH=iam).
   */
  operator?: { routes: readonly RouteDefinition[]; environment: Record<string, string> };
}

/** The HTTP API of one stage: one Lambda per route of the route table, plus the `$default` fallback. */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The function serving each operationId (the fallback's included), for wiring and tests. */
  readonly functions = new Map<string, ServiceFunction>();

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    // One nested stack per feature (a route's first tag; the operator API is one more): a route
    // costs four resources plus its share of a log group, and no stack nears CloudFormation's limits
    // however many routes a feature grows (docs/deploy-checks.md has the figures).
    const features = new Map<string, { stack: NestedStack; logs: LogGroup }>();
    const featureFor = (feature: string) => {
      let found = features.get(feature);
      if (!found) {
        const slug = feature.toLowerCase().replace(/[^a-z0-9]+/g, '-');
        const stack = new NestedStack(this, `${pascalCase(feature)}Feature`, {
          description: `Fleet fuel guidance, ${props.settings.stage} stage: the ${feature} routes`,
        });
        // One log group per feature, not per function: records still name their function.
        const logs = new LogGroup(stack, 'Logs', {
          logGroupName: `${props.logGroupNames.functionPrefix}/api-${slug}`,
          retention: FUNCTION_DEFAULTS.logRetention,
          removalPolicy: removalPolicyFor(props.settings.retainData),
        });
        found = { stack, logs };
        features.set(feature, found);
      }
      return found;
    };
    const functionFor = (
      scope: Construct,
      operationId: string,
      role: RoleGroup,
      description: string,
      options: { environment?: Record<string, string>; timeout?: Duration; logGroup?: LogGroup } = {},
    ) => {
      const fn = new ServiceFunction(scope, operationId, {
        name: operationId,
        functionsDir: props.functionsDir,
        role: props.roles.roleFor(role),
        environment: options.environment ?? props.environment,
        logPrefix: props.logGroupNames.functionPrefix,
        ...(options.logGroup ? { logGroup: options.logGroup } : {}),
        retainLogs: props.settings.retainData,
        description,
        timeout: options.timeout ?? FUNCTION_DEFAULTS.httpTimeout,
      });
      this.functions.set(operationId, fn);
      return fn;
    };
    const addRoute = (
      route: RouteDefinition,
      feature: string,
      options: { environment?: Record<string, string>; authorizer?: HttpIamAuthorizer } = {},
    ) => {
      const { stack, logs } = featureFor(feature);
      const fn = functionFor(stack, route.operationId, route.role, `${route.method} ${route.path}`, {
        logGroup: logs,
        ...(options.environment ? { environment: options.environment } : {}),
        ...(route.timeoutSeconds === undefined ? {} : { timeout: Duration.seconds(route.timeoutSeconds) }),
      });
      new HttpRoute(stack, `${route.operationId}Route`, {
        httpApi: this.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn.function),
        ...(options.authorizer ? { authorizer: options.authorizer } : {}),
      });
    };

    // The fallback stays beside the HttpApi, whose default integration it is, with a log group of its own.
    const fallback = functionFor(
      this,
      props.fallback.operationId,
      props.fallback.role,
      'Unknown routes: 404 problem; known paths with another method: 405 with Allow',
    );
    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `fleet-fuel-${props.settings.stage}`,
      description: `Fleet fuel guidance API (${props.settings.stage})`,
      // The default stage is made below, because only an explicit stage takes throttling and access logs.
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', fallback.function),
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.settings.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs(props)),
        format: accessLogFormat,
      },
    });

    for (const route of props.routes) addRoute(route, route.tags[0] ?? 'Other');

    // Breadcrumb ingest: the route every truck depends on (StageSettings.ingestReservedConcurrency).
    const ingest = this.functions.get(ingestLocationsOperation.operationId);
    if (ingest && props.settings.ingestReservedConcurrency !== null) {
      (ingest.function.node.defaultChild as CfnFunction).reservedConcurrentExecutions =
        props.settings.ingestReservedConcurrency;
    }

    if (props.operator) {
      const authorizer = new HttpIamAuthorizer();
      for (const route of props.operator.routes) {
        addRoute(route, 'Operator', { environment: props.operator.environment, authorizer });
      }
    }

    // Each route's Validations acknowledgement would name every route; one at the API level says it once.
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authentication is the API keys of docs/keys-and-access.md (svc_live_/svc_test_ bearer keys with scopes, ' +
        'revocation and suspension), checked by the shared middleware in every function; discovery ' +
        'routes and the 404 fallback are public by design. The operator routes (/admin) use IAM.',
    });
  }

  /** The stage's URL, e.g. https://abc123.execute-api.us-east-1.amazonaws.com/ */
  get url(): string {
    return this.stage.url;
  }

  private accessLogs(props: ApiProps): LogGroup {
    return new LogGroup(this, 'AccessLogs', {
      logGroupName: props.logGroupNames.access,
      retention: FUNCTION_DEFAULTS.logRetention,
      removalPolicy: removalPolicyFor(props.settings.retainData),
    });
  }
}

/**
 * One JSON line per request: the request id ties it to the function's logs, and the route key and
 * integration error show a failing route without opening the function's logs. No headers: the
 * Authorization header carries the API key.
 */
const accessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/** `Sandbox page` → `SandboxPage`: a feature's name as a construct id. */
function pascalCase(words: string): string {
  return words
    .split(/[^A-Za-z0-9]+/)
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('');
}
