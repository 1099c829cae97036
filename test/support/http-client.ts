/**
 * A small HTTP client for the e2e tests: it speaks the API's conventions (bearer key, SVC-Fleet,
 * JSON bodies) and hands back status, headers, the parsed JSON (when the body is JSON) and the raw
 * text, so a test asserts on what the integrator would see.
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface CallOptions {
  /** API key, sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Acting fleet for partner keys, sent as `SVC-Fleet`. */
  fleet?: string;
  /** Serialized as JSON with `Content-Type: application/json`. */
  body?: unknown;
  /** Sent as is, with whatever Content-Type `headers` says (none by default). */
  rawBody?: string | Uint8Array;
  /** Sent as `Idempotency-Key`. */
  idempotencyKey?: string;
  /** Appended as a query string; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed body when it is JSON (application/json, application/problem+json, …), else undefined. */
  json: T;
  text: string;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read fields of the answer and assert on them; a type per call would be noise.
type AnyJson = any;

export interface ApiClient {
  baseUrl: string;
  call<T = AnyJson>(method: HttpMethod, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  get<T = AnyJson>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  post<T = AnyJson>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  patch<T = AnyJson>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  delete<T = AnyJson>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
}

/**
 * @example
 * const prod = api(credentials.base_url);
 * const me = await prod.get('/v1/me', { key: credentials.keys.company_live });
 * expect(me.status).toBe(200);
 */
export function api(baseUrl: string): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  const call = async <T>(method: HttpMethod, path: string, options: CallOptions = {}) => {
    const headers = new Headers(options.headers);
    if (options.key !== undefined) headers.set('authorization', `Bearer ${options.key}`);
    if (options.fleet !== undefined) headers.set('svc-fleet', options.fleet);
    if (options.idempotencyKey !== undefined) headers.set('idempotency-key', options.idempotencyKey);
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    let json: unknown;
    if (/[/+]json\b/.test(contentType) && text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: response.status, headers: response.headers, json: json as T, text };
  };
  return {
    baseUrl: base,
    call,
    get: (path, options) => call('GET', path, options),
    post: (path, options) => call('POST', path, options),
    patch: (path, options) => call('PATCH', path, options),
    delete: (path, options) => call('DELETE', path, options),
  };
}
