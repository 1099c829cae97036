import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientErrorRefusal,
  createApiGatewayServer,
  FUNCTION_FILE_HEADER,
  type LambdaHandler,
  MAX_HEADER_BYTES,
  MAX_PAYLOAD_BYTES,
  normalizeResult,
  type RawRequest,
  toApiGatewayEvent,
} from './http-adapter.ts';
import type { RequestLogEntry } from './log-lines.ts';
import { createRouter } from './router.ts';

const match = {
  routeKey: 'GET /v1/vehicles/{id}',
  operationId: 'getVehicle',
  handler: 'x.ts',
  pathParameters: { id: 'v' },
};

const rawRequest = (overrides: Partial<RawRequest> = {}): RawRequest => ({
  method: 'GET',
  url: '/v1/vehicles/v?limit=2&tag=a&tag=b&q=a%20b',
  rawHeaders: [
    'Host',
    '127.0.0.1:3000',
    'Accept',
    'a',
    'ACCEPT',
    'b',
    'Cookie',
    'x=1; y=2',
    'User-Agent',
    'test',
  ],
  body: Buffer.alloc(0),
  sourceIp: '127.0.0.1',
  port: 3000,
  ...overrides,
});

describe('toApiGatewayEvent', () => {
  it('builds a payload 2.0 event the way API Gateway does', () => {
    const event = toApiGatewayEvent(rawRequest(), match, 'req-1', new Date('2026-11-21T22:43:05Z'));

    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /v1/vehicles/{id}',
      rawPath: '/v1/vehicles/v',
      rawQueryString: 'limit=2&tag=a&tag=b&q=a%20b',
      cookies: ['x=1', 'y=2'],
      queryStringParameters: { limit: '2', tag: 'a,b', q: 'a b' },
      pathParameters: { id: 'v' },
      isBase64Encoded: false,
      requestContext: {
        domainName: '127.0.0.1:3000',
        http: { method: 'GET', path: '/v1/vehicles/v', sourceIp: '127.0.0.1', userAgent: 'test' },
        requestId: 'req-1',
        routeKey: 'GET /v1/vehicles/{id}',
        stage: '$default',
        time: '21/Nov/2026:22:43:05 +0000',
        timeEpoch: Date.parse('2026-11-21T22:43:05Z'),
      },
    });
    expect(event.headers).toMatchObject({
      accept: 'a,b',
      'x-forwarded-proto': 'http',
      'x-forwarded-port': '3000',
    });
    expect(event.headers.cookie).toBeUndefined();
    expect(event.body).toBeUndefined();
  });

  it('passes a JSON body as text and anything else as base64', () => {
    const json = toApiGatewayEvent(
      rawRequest({
        rawHeaders: ['Content-Type', 'application/json; charset=utf-8'],
        body: Buffer.from('{"a":1}'),
      }),
      match,
      'r',
    );
    const binary = toApiGatewayEvent(
      rawRequest({ rawHeaders: ['Content-Type', 'application/octet-stream'], body: Buffer.from([0, 255]) }),
      match,
      'r',
    );
    const untyped = toApiGatewayEvent(rawRequest({ rawHeaders: [], body: Buffer.from('{}') }), match, 'r');

    expect(json).toMatchObject({ body: '{"a":1}', isBase64Encoded: false });
    expect(binary).toMatchObject({ body: 'AP8=', isBase64Encoded: true });
    expect(untyped).toMatchObject({ body: 'e30=', isBase64Encoded: true });
    expect(untyped.requestContext.domainName).toBe('127.0.0.1:3000');
  });
});

describe('normalizeResult', () => {
  it('takes a structured result as is and decodes a base64 body', () => {
    const result = normalizeResult({
      statusCode: 201,
      headers: { 'Content-Type': 'image/png', 'X-Count': 3 },
      cookies: ['a=1'],
      body: 'AP8=',
      isBase64Encoded: true,
    });

    expect(result).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'image/png', 'x-count': '3' },
      cookies: ['a=1'],
      body: Buffer.from([0, 255]),
    });
  });

  it('makes a 200 JSON answer of any other value, and refuses nothing or a bad status', () => {
    expect(normalizeResult({ ok: true })).toMatchObject({
      statusCode: 200,
      body: Buffer.from('{"ok":true}'),
    });
    expect(() => normalizeResult(undefined)).toThrow(/no result/);
    expect(() => normalizeResult({ statusCode: '200' })).toThrow(/statusCode/);
  });
});

describe('createApiGatewayListener', () => {
  const handlers: Record<string, LambdaHandler> = {
    'echo.ts': (event: APIGatewayProxyEventV2) => ({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      cookies: ['session=1; HttpOnly', 'theme=dark'],
      body: JSON.stringify({ body: event.body, params: event.pathParameters }),
    }),
    'boom.ts': () => {
      throw new Error('secret stack detail');
    },
    'fallback.ts': () => ({
      statusCode: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: '{"status":404,"code":"resource_not_found"}',
    }),
  };
  const errors: string[] = [];
  const logged: RequestLogEntry[] = [];
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createApiGatewayServer({
      router: createRouter(
        [
          { method: 'POST', path: '/echo/{id}', operationId: 'echo', handler: 'echo.ts' },
          { method: 'GET', path: '/boom', operationId: 'boom', handler: 'boom.ts' },
        ],
        { operationId: 'routeNotFound', handler: 'fallback.ts' },
      ),
      // The file names the function and its module, as a bundle's path names the operationId.
      loadFunction: async ({ name, handler }) => ({
        handler: handlers[handler] as LambdaHandler,
        file: `/code/${name}/${handler}`,
      }),
      port: () => (server.address() as AddressInfo).port,
      logError: (message) => errors.push(message),
      logRequest: (entry) => logged.push(entry),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('runs the matched handler and writes its answer, cookies included', async () => {
    const response = await fetch(`${baseUrl}/echo/a%20b`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x":1}',
    });

    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual(['session=1; HttpOnly', 'theme=dark']);
    expect(response.headers.get('apigw-requestid')).toBeTruthy();
    expect(response.headers.get(FUNCTION_FILE_HEADER)).toBe('/code/echo/echo.ts');
    expect(await response.json()).toEqual({ body: '{"x":1}', params: { id: 'a b' } });
  });

  it('answers a throwing handler with a 500 problem that leaks nothing', async () => {
    const response = await fetch(`${baseUrl}/boom`);
    const text = await response.text();

    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: 'internal_error' });
    expect(text).not.toMatch(/secret stack detail/);
    expect(errors.at(-1)).toMatch(/boom/);
  });

  it('sends unmatched requests to the fallback handler', async () => {
    const response = await fetch(`${baseUrl}/nope`);

    expect(response.status).toBe(404);
  });

  it('logs each request once it is answered, with the problem code of an error answer', async () => {
    logged.length = 0;
    await (await fetch(`${baseUrl}/echo/a`, { method: 'POST', body: '{}' })).text();
    await (await fetch(`${baseUrl}/nope?x=1`)).text();
    await (await fetch(`${baseUrl}/boom`)).text();
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(logged.map(({ method, path, status, code }) => ({ method, path, status, code }))).toEqual([
      { method: 'POST', path: '/echo/a', status: 200, code: undefined },
      { method: 'GET', path: '/nope', status: 404, code: 'resource_not_found' },
      { method: 'GET', path: '/boom', status: 500, code: 'internal_error' },
    ]);
    for (const entry of logged) expect(entry.ms).toBeGreaterThanOrEqual(0);
  });

  it('refuses a payload over 10 MB before any handler runs, as a problem', async () => {
    const response = await fetch(`${baseUrl}/echo/a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(MAX_PAYLOAD_BYTES + 1),
    });

    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      status: 413,
      code: 'payload_too_large',
      title: 'Request body too large',
      detail: 'The request body is over 10485760 bytes (10 MB), the most one request may carry.',
      hint: 'send at most 10 MB in one request; split the data over several requests',
      request_id: expect.stringMatching(/^req_/),
    });
    expect(response.headers.get('request-id')).toMatch(/^req_/);
  });

  it('refuses a request line and headers over 10,240 bytes (a 100 KB query) as a 431 problem', async () => {
    const response = await fetch(`${baseUrl}/echo/a?q=${'x'.repeat(100_000)}`);

    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      status: 431,
      code: 'headers_too_large',
      detail: `The request line and headers are over ${MAX_HEADER_BYTES} bytes together (a long query string counts).`,
    });
  });

  it('accepts a request line and headers just within 10,240 bytes', async () => {
    const response = await fetch(`${baseUrl}/nope?q=${'x'.repeat(9_000)}`);

    expect(response.status).toBe(404);
  });

  it.each([
    [
      'a method HTTP does not define',
      'BREW /echo/a HTTP/1.1\r\nHost: x\r\n\r\n',
      'The request method is not one HTTP defines.',
    ],
    [
      'a request target with a space',
      'GET /echo/a b HTTP/1.1\r\nHost: x\r\n\r\n',
      'The request is not valid HTTP/1.1.',
    ],
    [
      'a header line without a colon',
      'GET /echo/a HTTP/1.1\r\nHost x\r\n\r\n',
      'The request is not valid HTTP/1.1.',
    ],
  ])(
    'answers %s with a 400 malformed_request problem and closes the connection',
    async (_case, wire, detail) => {
      const answer = await rawExchange(baseUrl, wire);
      const [head = '', body = ''] = answer.split('\r\n\r\n');

      expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(head).toContain('Content-Type: application/problem+json');
      expect(head).toContain('Connection: close');
      expect(JSON.parse(body)).toMatchObject({ status: 400, code: 'malformed_request', detail });
    },
  );
});

/** Writes `wire` as sent (fetch cannot send malformed HTTP) and reads until the server closes. */
function rawExchange(baseUrl: string, wire: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(wire));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('error', reject);
  });
}

describe('clientErrorRefusal', () => {
  it('maps the parser’s refusals to problem codes, anything unknown to malformed_request', () => {
    expect(clientErrorRefusal('HPE_HEADER_OVERFLOW')).toMatchObject({
      code: 'headers_too_large',
      status: 431,
    });
    expect(clientErrorRefusal('HPE_INVALID_METHOD')).toMatchObject({
      code: 'malformed_request',
      status: 400,
    });
    expect(clientErrorRefusal('HPE_INVALID_URL')).toMatchObject({ code: 'malformed_request', status: 400 });
    expect(clientErrorRefusal(undefined)).toMatchObject({ code: 'malformed_request', status: 400 });
  });
});
