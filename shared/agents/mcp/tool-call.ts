import { FLEET_HEADER } from '#shared/platform/http/authorize.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from '#shared/platform/http/idempotency-key.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import type { HttpEvent, HttpResponse } from '#shared/platform/http/types.ts';
import { FLEET_ARGUMENT, IDEMPOTENCY_ARGUMENT } from './tools.ts';

/** The MCP request's own event: its key, host and trace headers carry over to the tool's API call. */
export type CallerEvent = Pick<HttpEvent, 'headers' | 'requestContext'>;

const queryValue = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(String).join(',')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/**
 * The API Gateway (payload 2.0) event of the API call a tool call stands for: arguments split back
 * into path parameters, query and body by the route's own schemas, the caller's Authorization
 * header, `fleet_id` as SVC-Fleet and `idempotency_key` as the Idempotency-Key of the idempotent POSTs. The route's
 * handler then runs exactly as if the call had come over HTTP.
 */
export function eventForToolCall(
  route: RouteDefinition,
  args: Readonly<Record<string, unknown>>,
  caller: CallerEvent,
): HttpEvent {
  const paramNames = new Set(Object.keys(route.request.params?._zod.def.shape ?? {}));
  const queryNames = new Set(Object.keys(route.request.query?._zod.def.shape ?? {}));
  const pathParameters: Record<string, string> = {};
  const queryStringParameters: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  let fleet: string | undefined;
  let idempotencyKey: string | undefined;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (paramNames.has(name)) pathParameters[name] = String(value);
    else if (queryNames.has(name)) queryStringParameters[name] = queryValue(value);
    else if (name === FLEET_ARGUMENT) fleet = String(value);
    else if (name === IDEMPOTENCY_ARGUMENT && route.idempotent) idempotencyKey = String(value);
    // Anything else is a body field; the route's body schema refuses unknown ones with a 422 naming them.
    else body[name] = value;
  }
  const rawPath = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(pathParameters[name] ?? ''),
  );
  const rawQueryString = new URLSearchParams(queryStringParameters).toString();
  const sendsBody =
    route.request.body !== undefined &&
    (Object.keys(body).length > 0 || route.request.bodyRequired !== false);
  const inherited = caller.headers ?? {};
  const headers: Record<string, string> = {};
  for (const name of [
    'authorization',
    'host',
    'x-forwarded-proto',
    'x-forwarded-for',
    'x-amzn-trace-id',
    'user-agent',
  ]) {
    const value = inherited[name];
    if (value !== undefined) headers[name] = value;
  }
  if (sendsBody) headers['content-type'] = 'application/json';
  if (fleet !== undefined) headers[FLEET_HEADER.toLowerCase()] = fleet;
  // No key, no header: the route answers 400 idempotency_key_required, as over HTTP. A key made up
  // here would make a host's automatic retry run the call twice.
  if (route.idempotent && idempotencyKey !== undefined) {
    headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] = idempotencyKey;
  }
  const routeKey = `${route.method} ${route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    headers,
    ...(rawQueryString ? { queryStringParameters } : {}),
    ...(paramNames.size ? { pathParameters } : {}),
    requestContext: {
      ...caller.requestContext,
      http: { ...caller.requestContext.http, method: route.method, path: rawPath },
      routeKey,
    },
    ...(sendsBody ? { body: JSON.stringify(body) } : {}),
    isBase64Encoded: false,
  };
}

/** An MCP `tools/call` result (the SDK's CallToolResult shape, kept plain here). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The idempotency problems in a tool call's words: the key is the `idempotency_key` argument
 * there, and a model told to send an `Idempotency-Key` header has no header to send.
 */
function idempotencyProblemForTool(
  code: unknown,
  args: Readonly<Record<string, unknown>>,
): { detail: string; hint: string } | undefined {
  const key = args[IDEMPOTENCY_ARGUMENT];
  const argument = `the ${IDEMPOTENCY_ARGUMENT} argument`;
  switch (code) {
    case 'idempotency_key_required':
      return {
        detail:
          typeof key === 'string' && key.length > IDEMPOTENCY_KEY_MAX_LENGTH
            ? `${argument} is ${key.length} characters; at most ${IDEMPOTENCY_KEY_MAX_LENGTH} are allowed.`
            : `This tool needs ${argument}.`,
        hint: `pass ${IDEMPOTENCY_ARGUMENT}: a value unique to this operation, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters (a UUID will do); pass the same value when retrying, so the call runs once`,
      };
    case 'idempotency_key_reuse':
      return {
        detail: `This ${IDEMPOTENCY_ARGUMENT} was already used with different arguments.`,
        hint: `pass a new ${IDEMPOTENCY_ARGUMENT}, or the same arguments as the first call to get its answer again`,
      };
    case 'idempotency_conflict':
      return {
        detail: `A call with this ${IDEMPOTENCY_ARGUMENT} is still being processed.`,
        hint: `wait, then call again with the same ${IDEMPOTENCY_ARGUMENT}`,
      };
    default:
      return undefined;
  }
}

/**
 * The API's answer as the tool's result: a success is the API's JSON (text, and structured when it
 * is an object); a problem is `isError` with its status, code, detail and hint (and `errors` on
 * validation), so the model sees what to fix, in the tool's terms where the API speaks of a header
 * (`args` are the call's arguments); a 204 says what was done.
 */
export function toolResultFor(
  route: Pick<RouteDefinition, 'method' | 'path'>,
  response: HttpResponse,
  args: Readonly<Record<string, unknown>> = {},
): ToolResult {
  const status = response.statusCode ?? 200;
  const text = typeof response.body === 'string' ? response.body : '';
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (status >= 400) {
    const problem = isRecord(json) ? json : {};
    const inToolTerms = idempotencyProblemForTool(problem.code, args);
    const summary: Record<string, unknown> = {
      status,
      code: problem.code ?? 'internal_error',
      detail: inToolTerms?.detail ?? problem.detail ?? text,
      ...(inToolTerms
        ? { hint: inToolTerms.hint }
        : problem.hint !== undefined
          ? { hint: problem.hint }
          : {}),
      ...(problem.errors !== undefined ? { errors: problem.errors } : {}),
      ...(problem.required_scope !== undefined ? { required_scope: problem.required_scope } : {}),
      ...(response.headers?.['Retry-After']
        ? { retry_after_seconds: Number(response.headers['Retry-After']) }
        : {}),
    };
    return {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify(summary) }],
      structuredContent: summary,
    };
  }
  if (json === undefined) {
    return {
      content: [
        { type: 'text', text: `Done: ${route.method} ${route.path} answered ${status} with no body.` },
      ],
    };
  }
  if (isRecord(json) && typeof json.secret === 'string') {
    // A signing secret is shown once: never into a model's transcript or a host's logs.
    const withheld = { ...json, secret: SECRET_WITHHELD };
    return { content: [{ type: 'text', text: JSON.stringify(withheld) }], structuredContent: withheld };
  }
  return {
    content: [{ type: 'text', text }],
    ...(isRecord(json) ? { structuredContent: json } : {}),
  };
}

/** What a tool result says instead of a secret the API answered. */
export const SECRET_WITHHELD =
  'withheld from tool results: rotate the secret over HTTP (POST /v1/webhooks/{id}/rotate-secret) to receive it';
