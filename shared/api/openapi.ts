import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import * as z from 'zod/mini';
import { SCOPES, type Scope } from '#shared/kernel/access.ts';
import { ID_PREFIXES, publicIdExample } from '#shared/kernel/ids.ts';
import { RATE_WINDOW_SECONDS } from '#shared/plans/domain/rate-window.ts';
import { ERROR_REGISTRY, ERROR_REGISTRY_PATH, type ErrorCode } from '#shared/platform/errors.ts';
import { FLEET_HEADER } from '#shared/platform/http/authorize.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '#shared/platform/http/idempotency-key.ts';
import { JSON_CONTENT_TYPE, PROBLEM_CONTENT_TYPE } from '#shared/platform/http/json.ts';
import { REQUEST_ID_HEADER } from '#shared/platform/http/respond.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { webhookDefinitions } from '#shared/webhooks/api/openapi-webhooks.ts';
import { EXTERNAL_REF_PREFIX, PAGE_LIMIT, problemSchema } from './common-schemas.ts';
import { type OperationExamples, problemExample } from './example.ts';
import { operationExamples } from './examples.ts';
import { exposeMiniSchemasToOpenApiGenerator } from './openapi-mini-readers.ts';
import { routeList } from './route-table.ts';

/**
 * The committed openapi.json names no real stage: the same file serves prod, sandbox and the local
 * stack, so GET /v1/openapi.json swaps `servers` for the answering stage's base URL at request time.
 * `.invalid` (RFC 2606) can never resolve, so a client that skips the served copy fails loudly
 * instead of calling somebody's host.
 */
export const OPENAPI_SERVER_PLACEHOLDER = 'https://api.fleet-fuel.invalid';

export { IDEMPOTENCY_KEY_MAX_LENGTH };

export const OPENAPI_VERSION = '3.1.0';
export const API_TITLE = 'Fleet Fuel Guidance API';
export const API_VERSION = 'v1';

const SECURITY_SCHEME = 'apiKey';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * zod-to-openapi types path and query parameters and schema definitions as zod classic; it reads
 * our zod/mini schemas as well (openapi-mini-readers.ts), which its types cannot say.
 */
type GeneratorParameters = NonNullable<NonNullable<RouteConfig['request']>['params']>;
type GeneratorSchema = Extract<
  ConstructorParameters<typeof OpenApiGeneratorV31>[0][number],
  { type: 'schema' }
>['schema'];

/** Spec section 5's scope table; typed by Scope so a new scope cannot ship undocumented. */
const SCOPE_USES: Record<Scope, string> = {
  'fleets:manage': 'fleet provisioning; partner keys only (a company key cannot hold it)',
  'vehicles:manage': "vehicles, including reading a vehicle's latest position",
  'locations:write': 'pushing location breadcrumbs',
  'fuelings:write': 'recording fuelings (POST /v1/fuelings)',
  'guidance:read': 'reading guidance',
  'guidance:manage': 'setting, cancelling, acknowledging and skipping guidance',
  'usage:read': 'reading usage: the fleet’s fuelings (GET /v1/fuelings) and the savings report',
  'webhooks:manage': 'webhook endpoints',
  'trips:manage':
    'dispatch trips: creating, editing, starting, completing, cancelling, optimizing, stop visits',
  'keys:manage':
    "owner keys: creating, listing, rotating and revoking the account's keys, and requesting production access",
};

/**
 * Tag order and descriptions. A tag used by a route but missing here fails generation: an
 * undescribed group would publish silently otherwise.
 */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Discovery: 'Machine-readable descriptions of the API: this document and the error registry. No key needed.',
  Agents:
    'For language models and agents: the MCP server (the API as tools, same key and limits) and the llms.txt guide (no key).',
  Account: 'The calling key: its owner, scopes, plan and usage this month.',
  Fleets: 'Fleet provisioning by partner keys (scope `fleets:manage`, no `SVC-Fleet` header).',
  Vehicles:
    'The fleet’s vehicles (scope `vehicles:manage`). A path takes a `veh_` id or `ext:<external_ref>`.',
  Locations: 'Location breadcrumbs, the input that drives guidance (scope `locations:write`).',
  Guidance:
    'Per-vehicle fuel-stop guidance toward a destination (scopes `guidance:read` and `guidance:manage`).',
  Stations:
    'Truck stops and diesel prices, nearby and along a corridor; charged to the station-query budget.',
  Routes: 'One-shot fuel-optimized routes.',
  Trips: 'Dispatch trips and their system-managed fuel stops.',
  Fuelings: 'Recorded fuel purchases.',
  Reports: 'Fuel savings and the adherence rate.',
  Integration: 'Integration health scorecards and self-tests.',
  Sandbox: 'The simulated sandbox fleet (test keys only).',
  Webhooks: 'Signed webhook endpoints, their deliveries and replays (scope `webhooks:manage`).',
  Keys: 'The account’s keys and its production access, managed by owner keys (scope `keys:manage`).',
  Events:
    'The events webhooks deliver, read back in sequence order within the replay window (scope `webhooks:manage`).',
};

type ErrorStatus = (typeof ERROR_REGISTRY)[ErrorCode]['status'];

/** Component names per problem status; typed so a new status in the registry needs a name here. */
const ERROR_RESPONSE_NAMES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'ContentTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'TooManyRequests',
  431: 'RequestHeaderFieldsTooLarge',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

const HEADER_COMPONENTS = {
  RequestId: {
    name: REQUEST_ID_HEADER,
    object: {
      description: 'This request’s `req_` id, also the problem’s `request_id`; quote it to support.',
      required: true,
      schema: { type: 'string', example: publicIdExample('request') },
    },
  },
  RateLimitLimit: {
    name: 'RateLimit-Limit',
    object: {
      description: `Requests this key may make per ${RATE_WINDOW_SECONDS}-second window.`,
      schema: { type: 'integer', example: 600 },
    },
  },
  RateLimitRemaining: {
    name: 'RateLimit-Remaining',
    object: {
      description: 'Requests left in the current window.',
      schema: { type: 'integer', example: 599 },
    },
  },
  RateLimitReset: {
    name: 'RateLimit-Reset',
    object: {
      description: 'Seconds until the current window resets.',
      schema: { type: 'integer', example: 42 },
    },
  },
  RateLimitPolicy: {
    name: 'RateLimit-Policy',
    object: {
      description: 'The quota policy (IETF draft-ietf-httpapi-ratelimit-headers structured form).',
      schema: { type: 'string', example: `"per-key";q=600;w=${RATE_WINDOW_SECONDS}` },
    },
  },
  RateLimit: {
    name: 'RateLimit',
    object: {
      description: 'Remaining requests and seconds to reset (IETF draft structured form).',
      schema: { type: 'string', example: '"per-key";r=599;t=42' },
    },
  },
  XRateLimitReset: {
    name: 'X-RateLimit-Reset',
    object: {
      description: 'When the current window resets, in epoch seconds.',
      schema: { type: 'integer', example: 1795300000 },
    },
  },
  RetryAfter: {
    name: 'Retry-After',
    object: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 42 } },
  },
} as const;

type HeaderComponent = keyof typeof HEADER_COMPONENTS;

const RATE_LIMIT_HEADERS: readonly HeaderComponent[] = [
  'RateLimitLimit',
  'RateLimitRemaining',
  'RateLimitReset',
  'RateLimitPolicy',
  'RateLimit',
  'XRateLimitReset',
];

const PARAMETER_COMPONENTS = {
  FleetHeader: {
    name: FLEET_HEADER,
    in: 'header',
    required: false,
    description:
      'The fleet to act on. Required for partner keys on fleet-scoped calls (400 `fleet_header_required` ' +
      'without it); company keys omit it and act on their own fleet.',
    schema: {
      type: 'string',
      pattern: `^${ID_PREFIXES.fleet}_[0-9A-HJKMNP-TV-Z]{26}$`,
      example: publicIdExample('fleet'),
    },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: true,
    description:
      'A unique key per intended operation, at most 64 characters. The same key with the same body ' +
      'replays the original response; with a different body it gives 422 `idempotency_key_reuse`; ' +
      'while the first request is in flight, 409 `idempotency_conflict`.',
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      example: 'order-7781-create',
    },
  },
} as const;

const componentRef = (kind: 'headers' | 'parameters' | 'responses' | 'schemas', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

function headerRefs(names: readonly HeaderComponent[]) {
  return Object.fromEntries(
    names.map((name) => [HEADER_COMPONENTS[name].name, componentRef('headers', name)]),
  );
}

const isKeyed = (route: RouteDefinition) => route.access !== 'anonymous';
/** Operator routes authenticate without an API key: no rate limiter counts them. */
const isCounted = (route: RouteDefinition) => isKeyed(route) && route.access !== 'operator';

/** The headers a response of this route carries: Request-Id always, RateLimit-* once the key was counted. */
function responseHeaders(keyed: boolean, status: number): HeaderComponent[] {
  // Authentication fails before the rate limit is counted, so a 401 has no RateLimit headers.
  const counted = keyed && status !== 401;
  return [
    'RequestId',
    ...(counted ? RATE_LIMIT_HEADERS : []),
    ...(status === 429 ? (['RetryAfter'] as const) : []),
  ];
}

/**
 * The problem codes an operation can answer with, derived from the request chain's order
 * (auth → limits → scope and fleet → body and validation → idempotency → handler), plus any
 * route-specific codes. Registry order, so the document stays stable as routes change.
 */
export function errorCodesFor(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const add = (...more: ErrorCode[]) => {
    for (const code of more) codes.add(code);
  };
  if (route.access === 'operator') {
    add('missing_api_key', 'invalid_api_key', 'insufficient_scope', 'auth_unavailable');
  } else if (isKeyed(route)) {
    add('missing_api_key', 'invalid_api_key', 'key_revoked', 'key_suspended', 'sandbox_key_on_production');
    add('auth_unavailable', 'rate_limited');
    if (route.family) add('quota_exceeded');
    if (route.family === 'stations') add('station_budget_exceeded', 'enumeration_suspected');
    if (route.scope || route.access === 'partner') add('insufficient_scope');
  }
  if (route.access === 'fleet') add('fleet_header_required', 'fleet_scope_mismatch', 'invalid_public_id');
  if (route.access === 'fleetOrPartner') add('fleet_scope_mismatch', 'invalid_public_id');
  if (route.request.params) add('invalid_public_id', 'resource_not_found');
  // Unknown query parameters are refused on every route, with or without a query schema.
  add('validation_failed');
  if (route.request.query && 'cursor' in route.request.query._zod.def.shape) add('invalid_cursor');
  // Any POST or PATCH body must be JSON, even on action routes that take none (platform/http/body.ts).
  if (route.request.body || route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') {
    add('unsupported_media_type', 'validation_failed');
  }
  if (route.idempotent) add('idempotency_key_required', 'idempotency_key_reuse', 'idempotency_conflict');
  add(...(route.errors ?? []));
  add('internal_error');
  const order = Object.keys(ERROR_REGISTRY);
  return [...codes].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

function errorComponentName(status: ErrorStatus, keyed: boolean): string {
  // Anonymous routes never pass the rate limiter, so their problems declare no RateLimit headers.
  return `${keyed ? '' : 'Anonymous'}${ERROR_RESPONSE_NAMES[status]}`;
}

function errorResponseComponent(status: ErrorStatus, keyed: boolean) {
  const codes = (Object.keys(ERROR_REGISTRY) as ErrorCode[]).filter(
    (code) => ERROR_REGISTRY[code].status === status,
  );
  return {
    description: `Problem details; \`code\` is one of ${codes.map((code) => `\`${code}\``).join(', ')}.`,
    headers: headerRefs(responseHeaders(keyed, status)),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: componentRef('schemas', 'Problem') } },
  };
}

function accessNote(route: RouteDefinition): string {
  if (route.access === 'anonymous') return 'No API key needed.';
  if (route.access === 'operator') {
    return 'Operator credentials: IAM (SigV4) of the operators’ role in AWS, the operator token locally. API keys are refused.';
  }
  const scope = route.scope ? `Required scope: \`${route.scope}\`.` : 'Any valid key; no scope.';
  if (route.access === 'partner') return `${scope} Partner keys only; send no \`${FLEET_HEADER}\` header.`;
  if (route.access === 'fleet') {
    return (
      `${scope} Acts on one fleet: a company key acts on its own fleet and omits \`${FLEET_HEADER}\`; ` +
      `a partner key names the fleet in the \`${FLEET_HEADER}\` header.`
    );
  }
  if (route.access === 'fleetOrPartner') {
    return (
      `${scope} A company key acts on its own fleet; a partner key acts on the fleet named in \`${FLEET_HEADER}\`, ` +
      'or, without the header, at partner level (endpoints there receive the partner’s `fleet.provisioned` events).'
    );
  }
  return scope;
}

function operationDescription(route: RouteDefinition): string {
  return [
    route.description,
    accessNote(route),
    route.idempotent
      ? `Requires the \`Idempotency-Key\` header (at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters).`
      : undefined,
    route.family ? `Counts toward the monthly \`${route.family}\` quota.` : undefined,
  ]
    .filter((part): part is string => Boolean(part))
    .join('\n\n');
}

function successResponses(
  route: RouteDefinition,
  examples: OperationExamples | undefined,
): Record<string, ResponseConfig> {
  const responses: Record<string, ResponseConfig> = {};
  for (const response of [...route.responses].sort((a, b) => a.status - b.status)) {
    const headers = headerRefs(responseHeaders(isCounted(route), response.status));
    responses[String(response.status)] =
      response.status === 204
        ? { description: response.description, headers }
        : {
            description: response.description,
            headers,
            // A success without a declared schema (the OpenAPI document itself) is still JSON.
            content: {
              [response.contentType ?? JSON_CONTENT_TYPE]: {
                schema: response.schema ?? { type: response.contentType ? 'string' : 'object' },
                ...exampleMember(examples?.responses?.[response.status]),
              },
            },
          };
  }
  return responses;
}

/** `{ example }` when there is one, else nothing (an absent example is not `undefined` in JSON). */
function exampleMember(example: unknown): { example?: unknown } {
  return example === undefined ? {} : { example };
}

function errorResponses(route: RouteDefinition) {
  const byStatus = new Map<ErrorStatus, ErrorCode[]>();
  for (const code of errorCodesFor(route)) {
    const status = ERROR_REGISTRY[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, codes]) => ({
      status,
      component: errorComponentName(status, isKeyed(route)),
      keyed: isCounted(route),
      // OpenAPI 3.1 lets a reference override `description`: each operation names its own codes.
      description: codes.map((code) => `\`${code}\`: ${ERROR_REGISTRY[code].title}.`).join(' '),
    }));
}

function headerParameters(route: RouteDefinition): (keyof typeof PARAMETER_COMPONENTS)[] {
  return [
    ...(route.access === 'fleet' || route.access === 'fleetOrPartner' ? (['FleetHeader'] as const) : []),
    ...(route.idempotent ? (['IdempotencyKey'] as const) : []),
  ];
}

function tagsOf(routes: readonly RouteDefinition[], descriptions: Readonly<Record<string, string>>) {
  const used = new Set(routes.flatMap((route) => route.tags));
  for (const tag of used) {
    if (!(tag in descriptions)) {
      throw new Error(`Tag "${tag}" has no description: add it to the document's tag descriptions.`);
    }
  }
  return Object.entries(descriptions)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
}

function assertUnique(routes: readonly RouteDefinition[]) {
  const seen = new Set<string>();
  for (const route of routes) {
    for (const key of [`operationId ${route.operationId}`, `route ${route.method} ${route.path}`]) {
      if (seen.has(key)) throw new Error(`Duplicate ${key} in the route table.`);
      seen.add(key);
    }
  }
}

const API_DESCRIPTION = `HTTP/JSON API for fleet fuel management: stream vehicle location breadcrumbs, get continuous \
fuel-stop guidance, fuel-optimized routes, station and price queries, dispatch trips, fuelings, savings \
reports, signed webhooks and integration health.

## Servers

Production and the sandbox are separate stages with their own base URLs (\`{base_url}\` and \
\`{sandbox_base_url}\`). The committed copy of this document lists \`${OPENAPI_SERVER_PLACEHOLDER}\` as a \
placeholder; \`GET /v1/openapi.json\` on a stage serves it with \`servers\` set to that stage's base URL.

## Authentication

Every request except the discovery documents carries \`Authorization: Bearer <API_KEY>\`. Production keys \
start with \`svc_live_\`, sandbox keys with \`svc_test_\`; a sandbox key on the production API gives 403 \
\`sandbox_key_on_production\`.

- A **company key** acts on its own fleet, implicitly, and sends no fleet header.
- A **partner key** manages many fleets. On fleet-scoped calls it selects the acting fleet with the \
\`${FLEET_HEADER}: <fleet_id>\` header (400 \`fleet_header_required\` without it, 403 \`fleet_scope_mismatch\` \
for a fleet not granted to it). Partner-level calls (fleet provisioning and listing) take no such header.

Each operation states its required scope in its description and in \`x-required-scope\` (\`null\`: any \
valid key), and who may call it in \`x-access\` (\`anonymous\`, \`key\`, \`partner\`, \`fleet\` or \`fleetOrPartner\`). Scopes:

${SCOPES.map((scope) => `- \`${scope}\`: ${SCOPE_USES[scope]}`).join('\n')}

A missing scope gives 403 \`insufficient_scope\` with \`required_scope\`. \`GET /v1/me\` lists the key's scopes.

## Conventions

- JSON in and out, snake_case members. A POST or PATCH body needs \`Content-Type: application/json\` \
(else 415 \`unsupported_media_type\`).
- Timestamps are UTC with six fractional digits (\`2026-11-21T22:26:10.123000Z\`); numbers carry no \
trailing zeros. A create response and a later GET agree byte for byte.
- Units are US customary: miles, gallons, mph.
- Public ids carry a type prefix (\`flt_\`, \`veh_\`, \`rte_\`, \`trip_\`, …); a malformed id or a wrong \
prefix gives 400 \`invalid_public_id\`. An id outside the acting fleet gives 404, never 403.
- Wherever a path or query takes a vehicle id, \`${EXTERNAL_REF_PREFIX}<external_ref>\` (URL-encoded) \
names the vehicle by your own reference instead.
- Lists answer \`{ "data": [...], "next_cursor": "..." }\`. Pass \`next_cursor\` back as \`cursor\` for \
the next page; it is \`null\` on the last page. \`limit\` defaults to ${PAGE_LIMIT.default} and is at most \
${PAGE_LIMIT.max}. A bad cursor gives 400 \`invalid_cursor\`.
- Operations that declare the \`Idempotency-Key\` header require it (at most ${IDEMPOTENCY_KEY_MAX_LENGTH} \
characters): the same key and body replay the original response.
- Every response carries \`${REQUEST_ID_HEADER}\`.

## Errors

Every 4xx and 5xx response is RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \
\`code\`, \`detail\`, \`hint\` and \`request_id\`. Branch on \`code\`. \`type\` is \
\`<base_url>${ERROR_REGISTRY_PATH}#<code>\`; \`GET ${ERROR_REGISTRY_PATH}\` and this document's \
\`x-error-registry\` list every code with its status, title and hint. \`validation_failed\` carries \
\`errors\` (\`{ field, message }\`, dotted paths such as \`destination.latitude\`); cap errors carry \
\`limit\` and \`used\`.

Nothing sent is ignored: an unknown body field or query parameter is 422 \`validation_failed\` (with the \
near-miss field when there is one). \`errors\` lists at most 50 fields; beyond that \`errors_truncated\` \
is true and \`error_count\` counts them all. A served path called with another method is 405 \
\`method_not_allowed\` with an \`Allow\` header.

503, 504 and \`rate_limited\` are transient: back off and retry. \`quota_exceeded\` and \
\`station_budget_exceeded\` last until the reset or an upgrade.

## Webhooks

Events are delivered by signed webhooks. This document's \`webhooks\` section has one entry per \
event type: the envelope a delivery POSTs (\`type\` fixed, \`data\` described member by member), the \
headers it carries (\`X-Service-Signature\` among them) and the answers expected. \`EventEnvelope\`, \
what \`GET /v1/events\` answers, is their union, told apart by \`type\`.

## Limits

Per-key request rate per ${RATE_WINDOW_SECONDS}-second window (429 \`rate_limited\`), a monthly quota per \
endpoint family (429 \`quota_exceeded\`) and a station-query budget per plan (429 \
\`station_budget_exceeded\`). Authenticated responses carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \
\`RateLimit-Reset\` (seconds), \`RateLimit-Policy\`, \`RateLimit\` and \`X-RateLimit-Reset\` (epoch seconds); \
a 429 carries \`Retry-After\` (seconds). \`GET /v1/me\` shows the plan's limits and this month's usage.`;

/**
 * What sets one published document apart from another built by the same generator: the public
 * API's (openapi.json) or the operator API's (admin-openapi.json, shared/admin/api/openapi.ts).
 */
/** The security schemes our documents publish: bearer tokens, and AWS SigV4 as API Gateway writes it. */
type SecurityScheme =
  | { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }
  | {
      type: 'apiKey';
      in: 'header';
      name: 'Authorization';
      description: string;
      'x-amazon-apigateway-authtype'?: 'awsSigv4';
    };

export interface DocumentProfile {
  title: string;
  /** The document's `webhooks`: the requests the service makes to its users (the public API's events). */
  webhooks?: () => RouteConfig[];
  description: string;
  tagDescriptions: Readonly<Record<string, string>>;
  securityScheme: { name: string; scheme: SecurityScheme };
  serverDescription: string;
}

export const PUBLIC_DOCUMENT: DocumentProfile = {
  title: API_TITLE,
  webhooks: webhookDefinitions,
  description: API_DESCRIPTION,
  tagDescriptions: TAG_DESCRIPTIONS,
  securityScheme: {
    name: SECURITY_SCHEME,
    scheme: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'svc_live_… or svc_test_…',
      description:
        'An API key as a bearer token: `svc_live_` for production, `svc_test_` for the sandbox. Partner keys ' +
        `also send \`${FLEET_HEADER}\` on fleet-scoped calls.`,
    },
  },
  serverDescription: 'Placeholder; GET /v1/openapi.json on a stage serves that stage’s base URL here.',
};

/**
 * The OpenAPI 3.1 document for a route table (the real one by default). Pure: the same routes give
 * the same document, member for member, so the committed openapi.json can be checked for staleness.
 */
export function buildOpenApiDocument(
  routes: readonly RouteDefinition[] = routeList,
  examples: Readonly<Record<string, OperationExamples>> = operationExamples,
  profile: DocumentProfile = PUBLIC_DOCUMENT,
): OpenApiDocument {
  exposeMiniSchemasToOpenApiGenerator();
  assertUnique(routes);
  const tags = tagsOf(routes, profile.tagDescriptions);
  const registry = new OpenAPIRegistry();

  registry.registerComponent('securitySchemes', profile.securityScheme.name, profile.securityScheme.scheme);

  const usedHeaders = new Set<HeaderComponent>();
  const usedParameters = new Set<keyof typeof PARAMETER_COMPONENTS>();
  const usedErrors = new Map<string, { status: ErrorStatus; keyed: boolean }>();
  const plannedHeaderParameters = new Map<string, (keyof typeof PARAMETER_COMPONENTS)[]>();

  const paths: RouteConfig[] = routes.map((route) => {
    const routeExamples = examples[route.operationId];
    const success = successResponses(route, routeExamples);
    for (const response of route.responses) {
      for (const name of responseHeaders(isCounted(route), response.status)) usedHeaders.add(name);
    }
    const problem = routeExamples?.problem
      ? problemExample(routeExamples.problem, OPENAPI_SERVER_PLACEHOLDER)
      : undefined;
    const errors: Record<string, ResponseConfig | { $ref: string; description: string }> = {};
    for (const error of errorResponses(route)) {
      for (const name of responseHeaders(error.keyed, error.status)) usedHeaders.add(name);
      if (problem?.status === error.status) {
        // A reference may not carry an example (OpenAPI 3.1 lets it override only its description),
        // so the status with the operation's example is written out in full.
        errors[String(error.status)] = {
          description: error.description,
          headers: headerRefs(responseHeaders(error.keyed, error.status)),
          content: {
            [PROBLEM_CONTENT_TYPE]: { schema: componentRef('schemas', 'Problem'), example: problem },
          },
        };
        continue;
      }
      usedErrors.set(error.component, { status: error.status, keyed: error.keyed });
      errors[String(error.status)] = {
        ...componentRef('responses', error.component),
        description: error.description,
      };
    }
    const headers = headerParameters(route);
    for (const name of headers) usedParameters.add(name);
    plannedHeaderParameters.set(operationKey(route), headers);

    const { params, query, bodyRequired } = route.request;
    const body = route.request.publishedBody ?? route.request.body;
    return {
      method: lowerMethod(route),
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: operationDescription(route),
      tags: [...route.tags],
      security: isKeyed(route) ? [{ [profile.securityScheme.name]: [] }] : [],
      'x-access': route.access,
      'x-required-scope': route.scope,
      'x-quota-family': route.family,
      request: {
        ...(params ? { params: params as GeneratorParameters } : {}),
        ...(query ? { query: query as GeneratorParameters } : {}),
        ...(body
          ? {
              body: {
                required: bodyRequired !== false,
                content: {
                  [JSON_CONTENT_TYPE]: { schema: body, ...exampleMember(routeExamples?.request?.body) },
                },
              },
            }
          : {}),
      },
      responses: { ...success, ...errors },
    };
  });

  // Components are registered in a fixed order (not first use), so adding a route moves nothing else.
  for (const name of Object.keys(HEADER_COMPONENTS) as HeaderComponent[]) {
    if (usedHeaders.has(name)) registry.registerComponent('headers', name, HEADER_COMPONENTS[name].object);
  }
  for (const name of Object.keys(PARAMETER_COMPONENTS) as (keyof typeof PARAMETER_COMPONENTS)[]) {
    if (usedParameters.has(name)) registry.registerComponent('parameters', name, PARAMETER_COMPONENTS[name]);
  }
  const errorComponents = [...usedErrors.entries()].sort(
    ([nameA, a], [nameB, b]) => a.status - b.status || nameA.localeCompare(nameB),
  );
  for (const [name, { status, keyed }] of errorComponents) {
    registry.registerComponent('responses', name, errorResponseComponent(status, keyed));
  }
  for (const path of paths) registry.registerPath(path);
  for (const webhook of profile.webhooks?.() ?? []) registry.registerWebhook(webhook);

  // A bare zod schema would be misread as a definition (zod 4 schemas have a `type` member), and
  // registry.register() needs the zod prototype patched; a schema definition needs neither.
  const generated = new OpenApiGeneratorV31(
    [...registry.definitions, { type: 'schema', schema: problemSchema as unknown as GeneratorSchema }],
    {
      sortComponents: 'alphabetically',
    },
  ).generateDocument({ openapi: OPENAPI_VERSION, info: { title: profile.title, version: API_VERSION } });

  // Header parameters go after path and query parameters, as references to the shared components;
  // the generator only prepends raw parameters, so they are appended here.
  for (const route of routes) {
    const operation = generated.paths?.[route.path]?.[lowerMethod(route)];
    if (!operation) throw new Error(`Generated document lacks ${route.method} ${route.path}`);
    for (const parameter of operation.parameters ?? []) {
      if (!('$ref' in parameter)) describeParameter(route, parameter, examples[route.operationId]);
    }
    const headers = plannedHeaderParameters.get(operationKey(route)) ?? [];
    if (headers.length === 0) continue;
    operation.parameters = [
      ...(operation.parameters ?? []),
      ...headers.map((name) => componentRef('parameters', name)),
    ];
  }

  const components = generated.components ?? {};
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: profile.title,
      version: API_VERSION,
      description: profile.description,
    },
    servers: [{ url: OPENAPI_SERVER_PLACEHOLDER, description: profile.serverDescription }],
    tags,
    paths: generated.paths ?? {},
    ...(generated.webhooks ? { webhooks: generated.webhooks } : {}),
    components: {
      schemas: components.schemas ?? {},
      responses: components.responses ?? {},
      ...(components.parameters && Object.keys(components.parameters).length > 0
        ? { parameters: components.parameters }
        : {}),
      headers: components.headers ?? {},
      securitySchemes: components.securitySchemes ?? {},
    },
    'x-error-registry': Object.fromEntries(
      Object.entries(ERROR_REGISTRY).map(([code, { status, title, hint }]) => [
        code,
        { status, title, hint },
      ]),
    ),
  };
}

type GeneratedParameter = Exclude<
  NonNullable<NonNullable<OpenApiDocument['paths']>[string]['get']>['parameters'],
  undefined
>[number];
type ParameterObject = Exclude<GeneratedParameter, { $ref: string }>;

/** A path or query parameter as generated, completed: its example, and for a query its `required`. */
function describeParameter(
  route: RouteDefinition,
  parameter: ParameterObject,
  examples: OperationExamples | undefined,
) {
  const values =
    parameter.in === 'path'
      ? examples?.request?.params
      : parameter.in === 'query'
        ? examples?.request?.query
        : undefined;
  if (parameter.in === 'query') describeQueryParameter(route, parameter);
  const value = values?.[parameter.name];
  if (value !== undefined) parameter.example = parameterExampleValue(parameter, value);
}

/**
 * The generator reads a query field's input type, and `z.coerce.number()` accepts anything, so it
 * would publish every coerced parameter as optional and nullable. A query string is never null,
 * and a parameter is required exactly when its schema refuses it absent: ask the schema itself.
 */
function describeQueryParameter(route: RouteDefinition, parameter: ParameterObject) {
  const field = route.request.query?._zod.def.shape[parameter.name];
  if (!field) return;
  parameter.required = !z.safeParse(field, undefined).success;
  const schema = parameter.schema;
  if (schema && !('$ref' in schema) && Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    schema.type = types.length === 1 ? types[0] : types;
  }
}

/** Examples hold what a client types in a URL; the document shows it in the parameter's own type. */
function parameterExampleValue(parameter: ParameterObject, value: string): unknown {
  const schema = parameter.schema;
  const type = schema && !('$ref' in schema) ? schema.type : undefined;
  return type === 'number' || type === 'integer' ? Number(value) : value;
}

function lowerMethod(route: RouteDefinition) {
  return route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
}

function operationKey(route: RouteDefinition) {
  return `${route.method} ${route.path}`;
}

/** How openapi.json is written: 2-space JSON and a trailing newline. */
export function serializeOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
