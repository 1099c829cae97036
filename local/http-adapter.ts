import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { ApiError, toProblem } from '#shared/platform/errors.ts';
import { newRequestId as newProblemRequestId } from '#shared/platform/http/request-meta.ts';
import { REQUEST_ID_HEADER } from '#shared/platform/http/respond.ts';
import type { FunctionLoader } from './function-loader.ts';
import { createLambdaContext } from './lambda-context.ts';
import { problemCode, type RequestLogEntry } from './log-lines.ts';
import type { RouteMatch, Router } from './router.ts';

/** API Gateway's request payload quota (HTTP APIs: 10 MB). */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/**
 * API Gateway's quota on the request line and the headers together (HTTP APIs: 10,240 bytes),
 * the stage servers' `maxHeaderSize`: a URL or header that fits locally fits deployed.
 */
export const MAX_HEADER_BYTES = 10_240;

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => unknown;

/**
 * Local stack only (API Gateway sends nothing like it): the file the answering function's handler
 * was imported from, its source module or its bundle (local/function-loader.ts), so a run can show
 * which code answered.
 */
export const FUNCTION_FILE_HEADER = 'x-local-function-file';

/** What API Gateway would hand the integration, minus the parts that need the route. */
export interface RawRequest {
  method: string;
  /** The request target as sent: `/v1/vehicles/ext%3Aa?limit=2`. */
  url: string;
  /** Node's `rawHeaders`: name, value, name, value… in the order sent. */
  rawHeaders: readonly string[];
  body: Buffer;
  sourceIp: string;
  /** The port the stage server listens on (domainName fallback and x-forwarded-port). */
  port: number;
  protocol?: string;
}

// API Gateway passes these bodies as text; everything else (and a body without Content-Type) is
// base64 with isBase64Encoded: true.
const TEXTUAL_CONTENT_TYPE =
  /^(text\/[^;]+|application\/(json|[^;]+\+json|xml|[^;]+\+xml|x-www-form-urlencoded|javascript|graphql))\s*(;|$)/i;

export function isTextualContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && TEXTUAL_CONTENT_TYPE.test(contentType.trim());
}

/** `21/Nov/2026:22:43:00 +0000`, the requestContext.time format. */
function requestTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}

/** API Gateway request ids look like `JDvGxjvjoAMEMfw=`. */
export function newRequestId(): string {
  return randomBytes(10).toString('base64');
}

function traceId(): string {
  const seconds = Math.floor(Date.now() / 1000).toString(16);
  return `Root=1-${seconds}-${randomBytes(12).toString('hex')}`;
}

export function splitTarget(url: string): { rawPath: string; rawQueryString: string } {
  // An absolute-form target (`http://host/path`) only comes from proxies; keep its path part.
  const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(url)
    ? url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '')
    : url;
  const queryStart = target.indexOf('?');
  const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : target.slice(queryStart + 1);
  return { rawPath: rawPath.startsWith('/') ? rawPath : `/${rawPath}`, rawQueryString };
}

/**
 * The HTTP API payload format 2.0 event for one request: header names lower-cased, repeated
 * headers and query parameters joined with commas, cookies moved from the `cookie` header into
 * `cookies`, and the x-forwarded-* headers API Gateway adds (proto `http` here, `https` there: the
 * platform builds public URLs from it and requestContext.domainName).
 */
export function toApiGatewayEvent(
  request: RawRequest,
  match: RouteMatch,
  requestId: string,
  now = new Date(),
): APIGatewayProxyEventV2 {
  const { rawPath, rawQueryString } = splitTarget(request.url);
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    const name = (request.rawHeaders[index] ?? '').toLowerCase();
    const value = request.rawHeaders[index + 1] ?? '';
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((cookie) => cookie.trim())
          .filter(Boolean),
      );
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  const domainName = headers.host || `127.0.0.1:${request.port}`;
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${request.sourceIp}`
    : request.sourceIp;
  headers['x-forwarded-port'] = String(request.port);
  headers['x-forwarded-proto'] = 'http';
  headers['x-amzn-trace-id'] = traceId();

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    queryStringParameters = {};
    for (const [key, value] of new URLSearchParams(rawQueryString)) {
      queryStringParameters[key] =
        key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
    }
  }

  const hasBody = request.body.length > 0;
  const textual = isTextualContentType(headers['content-type']);
  const method = request.method.toUpperCase();
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(match.pathParameters ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.replace(/:\d+$/, '').split('.')[0] ?? domainName,
      http: {
        method,
        path: rawPath,
        protocol: request.protocol ?? 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: match.routeKey,
      stage: '$default',
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    ...(hasBody ? { body: textual ? request.body.toString('utf8') : request.body.toString('base64') } : {}),
    isBase64Encoded: hasBody && !textual,
  };
}

export interface NormalizedResult {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: Buffer;
}

export class InvalidHandlerResultError extends Error {}

/**
 * What API Gateway makes of a handler's return value (format 2.0): a result with `statusCode` is
 * used as is; any other JSON value is the body of a 200 application/json answer.
 */
export function normalizeResult(result: APIGatewayProxyResultV2 | unknown): NormalizedResult {
  if (result === undefined || result === null) {
    throw new InvalidHandlerResultError('the handler returned no result');
  }
  if (typeof result !== 'object' || !('statusCode' in result)) {
    const body = typeof result === 'string' ? result : JSON.stringify(result);
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      cookies: [],
      body: Buffer.from(body),
    };
  }
  const shaped = result as { statusCode: unknown; headers?: unknown; cookies?: unknown; body?: unknown };
  const { statusCode } = shaped;
  if (
    typeof statusCode !== 'number' ||
    !Number.isInteger(statusCode) ||
    statusCode < 100 ||
    statusCode > 599
  ) {
    throw new InvalidHandlerResultError(`invalid statusCode ${JSON.stringify(statusCode)}`);
  }
  if (shaped.body !== undefined && shaped.body !== null && typeof shaped.body !== 'string') {
    throw new InvalidHandlerResultError(`body must be a string, got ${typeof shaped.body}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries((shaped.headers as Record<string, unknown> | undefined) ?? {})) {
    if (value !== undefined && value !== null) headers[name.toLowerCase()] = String(value);
  }
  const cookies = Array.isArray(shaped.cookies) ? shaped.cookies.map(String) : [];
  const text = (shaped.body as string | undefined) ?? '';
  const isBase64Encoded = (result as { isBase64Encoded?: unknown }).isBase64Encoded === true;
  return {
    statusCode,
    headers,
    cookies,
    body: isBase64Encoded ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8'),
  };
}

export function writeResult(
  response: ServerResponse,
  result: NormalizedResult,
  requestId: string,
  method: string,
): void {
  const { 'content-length': _ignored, 'set-cookie': setCookie, ...headers } = result.headers;
  response.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  const cookies = [...(setCookie ? [setCookie] : []), ...result.cookies];
  if (cookies.length) response.setHeader('set-cookie', cookies);
  response.setHeader('apigw-requestid', requestId);
  const noBody = method === 'HEAD' || result.statusCode === 204 || result.statusCode === 304;
  response.setHeader('content-length', noBody ? 0 : result.body.length);
  response.end(noBody ? undefined : result.body);
}

export interface ListenerOptions {
  router: Router;
  /** The function's handler and the file it was imported from (local/function-loader.ts). */
  loadFunction: FunctionLoader;
  /** The port this server listens on; read per request because it is known only after listen. */
  port(): number;
  /** One entry per request (with the problem code of an error answer); omit for silence. */
  logRequest?: (entry: RequestLogEntry) => void;
  /** Handler faults (bugs): always reported. */
  logError: (message: string, error: unknown) => void;
  region?: string;
}

/**
 * The HTTP API in front of the route table: Node request → payload 2.0 event → handler module
 * (the same file the Lambda runs) → response. A handler that throws, or returns something API
 * Gateway could not use, is a bug: the client gets a 500 problem without a stack, the log gets
 * the stack.
 */
export function createApiGatewayListener(options: ListenerOptions): RequestListener {
  return (request, response) => {
    const started = performance.now();
    const requestId = newRequestId();
    const method = (request.method ?? 'GET').toUpperCase();
    const { rawPath } = splitTarget(request.url ?? '/');
    let code: string | undefined;
    const respond = (result: NormalizedResult) => {
      if (result.statusCode >= 400) code = problemCode(result.headers['content-type'], result.body);
      writeResult(response, result, requestId, method);
    };
    response.once('finish', () => {
      const ms = Math.round(performance.now() - started);
      options.logRequest?.({ method, path: rawPath, status: response.statusCode, code, ms, requestId });
    });
    void handle(options, request, respond, requestId, method).catch((error: unknown) => {
      options.logError(`${method} ${rawPath}: the local adapter failed`, error);
      if (!response.headersSent) respond(internalError(request, options, requestId));
      else response.destroy();
    });
  };
}

/**
 * The HTTP server of one local stage: the listener above, and API Gateway's limits on what a
 * request may be before any function runs (a 10 MB body, 10,240 bytes of request line and
 * headers), refused in the problem envelope.
 */
export function createApiGatewayServer(options: ListenerOptions): Server {
  const server = createServer(
    { keepAliveTimeout: 5000, maxHeaderSize: MAX_HEADER_BYTES },
    createApiGatewayListener(options),
  );
  server.on('clientError', (error, socket) =>
    answerClientError(error, socket, `http://127.0.0.1:${options.port()}`),
  );
  return server;
}

async function handle(
  options: ListenerOptions,
  request: IncomingMessage,
  respond: (result: NormalizedResult) => void,
  requestId: string,
  method: string,
): Promise<void> {
  const body = await readBody(request);
  if (body === 'too-large') {
    // API Gateway refuses the request itself; no function runs.
    const refusal = payloadTooLarge(`http://${request.headers.host || `127.0.0.1:${options.port()}`}`);
    respond({ ...refusal, headers: { ...refusal.headers, connection: 'close' } });
    return;
  }
  const raw: RawRequest = {
    method,
    url: request.url ?? '/',
    rawHeaders: request.rawHeaders,
    body,
    sourceIp: (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
    port: options.port(),
    protocol: `HTTP/${request.httpVersion}`,
  };
  const match = options.router.match(method, splitTarget(raw.url).rawPath);
  const event = toApiGatewayEvent(raw, match, requestId);
  let result: NormalizedResult;
  try {
    const { handler, file } = await options.loadFunction({ name: match.operationId, handler: match.handler });
    const answer = normalizeResult(
      await handler(
        event as never,
        createLambdaContext(match.operationId, (match.timeoutSeconds ?? 10) * 1000, options.region),
      ),
    );
    result = { ...answer, headers: { ...answer.headers, [FUNCTION_FILE_HEADER]: file } };
  } catch (error) {
    options.logError(`${method} ${raw.url} → ${match.operationId} (${match.handler}) failed`, error);
    result = internalError(request, options, requestId);
  }
  respond(result);
}

/**
 * The body, or `too-large` once all of an oversized one has arrived: answering while the client is
 * still sending would reset the connection under it, and it would see no answer at all.
 */
function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES && !tooLarge) {
        tooLarge = true;
        chunks.length = 0;
      }
      if (!tooLarge) chunks.push(chunk);
    });
    request.once('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

/**
 * The body over API Gateway's quota, refused before any function runs, in the problem envelope
 * (API Gateway answers `{"message":"Request Entity Too Large"}` here: docs/limits.md).
 */
function payloadTooLarge(baseUrl: string): NormalizedResult {
  const refusal = new ApiError(
    'payload_too_large',
    `The request body is over ${MAX_PAYLOAD_BYTES} bytes (10 MB), the most one request may carry.`,
  );
  const requestId = newProblemRequestId();
  return {
    statusCode: refusal.status,
    headers: { 'content-type': 'application/problem+json', [REQUEST_ID_HEADER.toLowerCase()]: requestId },
    cookies: [],
    body: Buffer.from(JSON.stringify(toProblem(refusal, requestId, baseUrl))),
  };
}

/**
 * What Node's HTTP parser refused (its `clientError`), as a problem: the request line and headers
 * over {@link MAX_HEADER_BYTES} (a 100 KB query string), a method HTTP does not define, a request
 * target or header that is not valid HTTP/1.1.
 */
export function clientErrorRefusal(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'headers_too_large',
        `The request line and headers are over ${MAX_HEADER_BYTES} bytes together (a long query string counts).`,
      );
    case 'HPE_INVALID_METHOD':
      return new ApiError('malformed_request', 'The request method is not one HTTP defines.');
    case 'HPE_INVALID_URL':
      return new ApiError('malformed_request', 'The request target is not a valid path and query.');
    default:
      return new ApiError('malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * The stage server's `clientError` listener. No request object exists yet, so the answer is
 * written to the socket as it goes on the wire, and the connection is closed: what follows the
 * refused bytes cannot be read as a next request.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, baseUrl: string): void {
  // A client gone, or one that never finished its request in time: nobody is left to read an answer.
  if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = clientErrorRefusal(error.code);
  const requestId = newProblemRequestId();
  const body = JSON.stringify(toProblem(refusal, requestId, baseUrl));
  socket.end(
    [
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`,
      'Content-Type: application/problem+json',
      `${REQUEST_ID_HEADER}: ${requestId}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

function internalError(
  request: IncomingMessage,
  options: ListenerOptions,
  requestId: string,
): NormalizedResult {
  const host = request.headers.host || `127.0.0.1:${options.port()}`;
  const problem = toProblem(
    new ApiError('internal_error', 'The request could not be completed because of an internal error.'),
    requestId,
    `http://${host}`,
  );
  return {
    statusCode: 500,
    headers: { 'content-type': 'application/problem+json' },
    cookies: [],
    body: Buffer.from(JSON.stringify(problem)),
  };
}
