import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { type Clock, systemClock } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { currentStage, type Stage } from '../config.ts';
import { apiErrorForDomainError } from '../domain-errors.ts';
import { ApiError } from '../errors.ts';
import { logger } from '../observability.ts';
import { validatePart } from '../validation/validate.ts';
import { authenticate } from './authenticate.ts';
import { authorize, FLEET_HEADER } from './authorize.ts';
import { parseJsonBody } from './body.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  type IdempotentRunnerFactory,
  idempotencyScope,
  requireIdempotencyKey,
} from './idempotency-key.ts';
import { enforceQuota, enforceRateLimit } from './limits.ts';
import {
  authenticateOperator,
  type FindOperatorToken,
  type Operator,
  type OperatorAuthMode,
} from './operator.ts';
import type { PlatformDeps } from './platform-deps.ts';
import { header, newRequestId, publicBaseUrl } from './request-meta.ts';
import { problemResponse, REQUEST_ID_HEADER, successResponse } from './respond.ts';
import type { RouteDefinition } from './route-definition.ts';
import type { ApiContext, ApiInput, HttpEvent, HttpResponse, HttpResult } from './types.ts';

type Infer<S> = S extends z.core.$ZodType ? z.output<S> : undefined;
type RouteInput<R extends RouteDefinition> = ApiInput<
  Infer<R['request']['params']>,
  Infer<R['request']['query']>,
  Infer<R['request']['body']>
>;

export type RouteImplementation<R extends RouteDefinition> = (
  input: RouteInput<R>,
  context: ApiContext,
) => Promise<HttpResult>;

/** What the middlewares learn about a request, handed on through the Lambda context (middy's way). */
interface ChainState {
  requestId: string;
  baseUrl: string;
  /** Headers every response carries, success or problem (RateLimit-*). */
  responseHeaders: Record<string, string>;
  principal: Principal | null;
  fleetId: string | null;
  input: ApiInput<unknown, unknown, unknown> | null;
  /** Set on idempotent routes once the header passed its checks. */
  idempotencyKey: string | null;
}

type Middleware = MiddlewareObj<HttpEvent, HttpResponse, Error, Context>;

/** The state rides on the Lambda context object, as middy's own middlewares do (`setToContext`). */
const chainOf = (context: Context): ChainState => (context as Context & { chain: ChainState }).chain;

/** Request id, log keys, and the one place errors become problem+json (no stack ever leaks). */
function requestMeta(): Middleware {
  return {
    before: (request) => {
      (request.context as Context & { chain: ChainState }).chain = {
        requestId: newRequestId(),
        baseUrl: publicBaseUrl(request.event),
        responseHeaders: {},
        principal: null,
        fleetId: null,
        input: null,
        idempotencyKey: null,
      };
      logger.resetKeys();
      logger.appendKeys({
        requestId: chainOf(request.context).requestId,
        awsRequestId: request.context.awsRequestId,
      });
    },
    onError: (request) => {
      const chain = chainOf(request.context) as ChainState | undefined;
      const error = apiErrorForDomainError(request.error) ?? request.error;
      if (!(error instanceof ApiError)) logger.error('Unhandled error', { error });
      else if (error.status >= 500) logger.warn('Request failed', { code: error.code, detail: error.detail });
      request.response = problemResponse(
        error instanceof ApiError ? error : new ApiError('internal_error', 'An unexpected error occurred.'),
        chain?.requestId ?? newRequestId(),
        chain?.baseUrl ?? publicBaseUrl(request.event),
        chain?.responseHeaders ?? {},
      );
    },
  };
}

/** Key → principal, the per-key rate limit, then scope and fleet selection, in that order (docs/limits.md). */
function apiKeyAccess(route: RouteDefinition, deps: () => PlatformDeps): Middleware {
  return {
    before: async ({ event, context }) => {
      if (route.access === 'anonymous') return;
      const platform = deps();
      const principal = await authenticate(header(event, 'authorization'), platform.stage, platform.findKey, {
        nowMs: platform.clock.now(),
        touch: platform.touchKey,
      });
      chainOf(context).principal = principal;
      logger.appendKeys({ keyId: principal.keyId });
      Object.assign(
        chainOf(context).responseHeaders,
        await enforceRateLimit(principal, {
          plan: platform.plan,
          counters: platform.counters,
          now: platform.clock.now,
        }),
      );
      chainOf(context).fleetId = await authorize(
        route,
        principal,
        header(event, FLEET_HEADER),
        platform.hasGrant,
      );
      if (chainOf(context).fleetId) logger.appendKeys({ fleetId: chainOf(context).fleetId });
    },
  };
}

/** JSON body (415 rules) and zod validation of path, query and body. */
function requestInput(route: RouteDefinition): Middleware {
  return {
    before: ({ event, context }) => {
      if (route.idempotent) {
        chainOf(context).idempotencyKey = requireIdempotencyKey(header(event, IDEMPOTENCY_KEY_HEADER));
      }
      const body = parseJsonBody(route, event);
      chainOf(context).input = {
        params: validatePart('params', route.request.params, event.pathParameters),
        query: validatePart('query', route.request.query, event.queryStringParameters),
        // An optional body (e.g. the webhook test send) may be absent; when present it is validated.
        body:
          body === undefined && route.request.bodyRequired === false
            ? undefined
            : validatePart('body', route.request.body, body),
        headers: event.headers ?? {},
      };
    },
  };
}

/**
 * The monthly quota of the route's family, once the call is known to be well-formed: after key,
 * rate limit, scope and fleet (the order of docs/limits.md), so a refused or malformed
 * call uses none of it.
 */
function monthlyQuota(route: RouteDefinition, deps: () => PlatformDeps): Middleware {
  return {
    before: async ({ context }) => {
      const { principal, fleetId } = chainOf(context);
      if (!principal) return;
      const platform = deps();
      await enforceQuota(
        principal,
        route.family,
        { plan: platform.plan, counters: platform.counters, now: platform.clock.now },
        fleetId,
      );
    },
  };
}

/**
 * For API Gateway's `$default` route: only the request id and the problem rendering, so an unknown
 * route answers 404 whatever key, method or body it was sent with.
 */
export function createFallbackHandler(respond: (event: HttpEvent) => Promise<HttpResponse>) {
  return middy<HttpEvent, HttpResponse, Error, Context>()
    .use(requestMeta())
    .handler(async (event, context) => {
      const response = await respond(event);
      return {
        ...response,
        headers: { ...response.headers, [REQUEST_ID_HEADER]: chainOf(context).requestId },
      };
    });
}

/**
 * The HTTP chain every route runs through, in spec order: request id → auth → limits →
 * validation → handler → canonical JSON; any error → problem+json. Handlers stay thin: they get
 * typed input and the acting fleet and return a result. `deps` is called only when a request needs
 * them (shared/wiring/http.ts passes the container's; tests pass fakes).
 *
 * An idempotent route needs `idempotentRunner` (createIdempotentRunner, or createHttpHandler in
 * handler.ts which passes it): it is a parameter so that the other routes' bundles do not carry
 * Powertools idempotency. Leaving it out on an idempotent route fails when the handler is built.
 */
export function createHttpChain<R extends RouteDefinition>(
  route: R,
  implementation: RouteImplementation<R>,
  deps: () => PlatformDeps,
  idempotentRunner: IdempotentRunnerFactory<BasePersistenceLayer> | null,
) {
  if (route.idempotent && !idempotentRunner) {
    throw new Error(
      `${route.operationId} is idempotent: build its handler with idempotentHttpHandler (shared/wiring/idempotent-http.ts)`,
    );
  }
  const idempotent =
    route.idempotent && idempotentRunner
      ? idempotentRunner(route.operationId, () => {
          const store = deps().idempotencyStore;
          if (!store)
            throw new Error(`${route.operationId} is idempotent but its deps have no idempotencyStore`);
          return store(route.operationId);
        })
      : null;
  return middy<HttpEvent, HttpResponse, Error, Context>()
    .use(requestMeta())
    .use(apiKeyAccess(route, deps))
    .use(requestInput(route))
    .use(monthlyQuota(route, deps))
    .handler(async (_event, context) => {
      const chain = chainOf(context);
      logger.appendKeys({ operationId: route.operationId });
      const run = () =>
        implementation(chain.input as RouteInput<R>, {
          requestId: chain.requestId,
          // Anonymous routes need no table, so they must not build the table-backed dependencies.
          stage: route.access === 'anonymous' ? currentStage() : deps().stage,
          baseUrl: chain.baseUrl,
          principal: chain.principal,
          fleetId: chain.fleetId,
          clock: route.access === 'anonymous' ? systemClock : deps().clock,
          // A context made by hand (tests, MCP) may have no timer: nothing then stops the function.
          remainingTimeMs:
            typeof context.getRemainingTimeInMillis === 'function'
              ? () => context.getRemainingTimeInMillis()
              : () => Number.POSITIVE_INFINITY,
        });
      const result =
        idempotent && chain.idempotencyKey !== null
          ? await idempotent(
              {
                // The key is only read once a key has authenticated, so the principal is there.
                scope: idempotencyScope(deps().stage, chain.principal as Principal, chain.fleetId),
                key: chain.idempotencyKey,
                body: chain.input?.body ?? null,
              },
              context,
              run,
            )
          : await run();
      return successResponse(result, chain.requestId, chain.responseHeaders);
    });
}

/** What the operator chain needs: how callers authenticate, and the clock. */
export interface OperatorChainDeps {
  stage: Stage;
  clock: Clock;
  authMode: OperatorAuthMode;
  findOperatorToken: FindOperatorToken;
}

/** What an operator route's implementation gets besides its input. */
export interface OperatorContext {
  requestId: string;
  stage: Stage;
  baseUrl: string;
  operator: Operator;
  clock: Clock;
}

export type OperatorRouteImplementation<R extends RouteDefinition> = (
  input: RouteInput<R>,
  context: OperatorContext,
) => Promise<HttpResult>;

/**
 * The operator API's chain (`/admin/v1/…`): the same request id, validation and problem rendering
 * as the public API, but operator authentication in place of API keys, and no rate limit, scope,
 * fleet or quota (operators are not customers; IAM and the audit trail govern them).
 */
export function createOperatorHandler<R extends RouteDefinition>(
  route: R,
  implementation: OperatorRouteImplementation<R>,
  deps: () => OperatorChainDeps,
) {
  // The caller rides on the Lambda context like the chain state: one handler serves concurrent
  // requests in the local stack, so nothing per-request may live in this closure.
  const operatorOf = (context: Context) => context as Context & { operator: Operator };
  const operatorAccess: Middleware = {
    before: async ({ event, context }) => {
      const platform = deps();
      const operator = await authenticateOperator(event, platform.authMode, platform.findOperatorToken);
      operatorOf(context).operator = operator;
      logger.appendKeys({ operatorId: operator.id });
    },
  };
  return middy<HttpEvent, HttpResponse, Error, Context>()
    .use(requestMeta())
    .use(operatorAccess)
    .use(requestInput(route))
    .handler(async (_event, context) => {
      const chain = chainOf(context);
      logger.appendKeys({ operationId: route.operationId });
      const result = await implementation(chain.input as RouteInput<R>, {
        requestId: chain.requestId,
        stage: deps().stage,
        baseUrl: chain.baseUrl,
        operator: operatorOf(context).operator,
        clock: deps().clock,
      });
      return successResponse(result, chain.requestId, chain.responseHeaders);
    });
}
