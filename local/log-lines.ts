/**
 * What the local stack prints while it runs: one readable line per request and one per log record
 * of a handler or worker (a guidance cycle, a webhook attempt), or the records' full JSON when asked
 * (`LOCAL_LOG=json`). `LOCAL_QUIET=1` keeps only warnings and errors.
 */

/** `lines`: one short line per request or record (default); `json`: every record in full. */
export type LogFormat = 'lines' | 'json';

export const LOG_FORMAT_ENV = 'LOCAL_LOG';

/** `LOCAL_LOG=json` or `lines`; anything else is a typo, said once, and the default is used. */
export function logFormatFrom(env: NodeJS.ProcessEnv, warn: (line: string) => void = () => {}): LogFormat {
  const value = env[LOG_FORMAT_ENV];
  if (value === undefined || value === '' || value === 'lines') return 'lines';
  if (value === 'json') return 'json';
  warn(`${LOG_FORMAT_ENV}=${value} is not "lines" or "json"; using lines`);
  return 'lines';
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  /** The problem's `code` when the answer is a problem (4xx/5xx). */
  code?: string | undefined;
  ms: number;
  requestId: string;
}

/**
 * One request: `POST /v1/vehicles 422 validation_failed 12ms`, or its JSON with the request id.
 *
 * @example
 * requestLogLine({ method: 'GET', path: '/v1/me', status: 200, ms: 4, requestId: 'x' }, 'lines');
 * // 'GET /v1/me 200 4ms'
 */
export function requestLogLine(entry: RequestLogEntry, format: LogFormat): string {
  if (format === 'json') return JSON.stringify({ kind: 'request', ...entry });
  const code = entry.code ? ` ${entry.code}` : '';
  return `${entry.method} ${entry.path} ${entry.status}${code} ${entry.ms}ms`;
}

/** The problem code of a response body, when it is a problem document. */
export function problemCode(contentType: string | undefined, body: Buffer): string | undefined {
  if (!contentType?.toLowerCase().startsWith('application/problem+json')) return undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

// Keys every Powertools record carries: noise on a developer's terminal (they stay in JSON mode).
const POWERTOOLS_BOILERPLATE = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'sampling_rate',
  'xray_trace_id',
  'cold_start',
  'function_arn',
  'function_memory_size',
  'function_name',
  'function_request_id',
  // Appended to every record of a request by the HTTP chain; the request line already says which
  // (and in one stage process they linger into the workers' records, where they mislead).
  'requestId',
  'awsRequestId',
  'keyId',
  'operationId',
]);

const MAX_VALUE_CHARS = 120;

/**
 * A line a stage server printed, as the developer should see it. Powertools' JSON records become
 * `INFO Guidance cycle fleetId=flt_… vehicleId=veh_… events=guidance.updated`; an error field shows
 * its name and message (the stack is in `LOCAL_LOG=json`). Anything else passes through untouched.
 *
 * @example
 * formatLogRecord('{"level":"INFO","message":"Offline sweep","markedOffline":2}', 'lines');
 * // 'INFO Offline sweep markedOffline=2'
 */
export function formatLogRecord(line: string, format: LogFormat): string {
  if (format === 'json' || !line.startsWith('{')) return line;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof record.message !== 'string' || typeof record.level !== 'string') return line;
  const fields = Object.entries(record)
    .filter(([key, value]) => !POWERTOOLS_BOILERPLATE.has(key) && value !== undefined && value !== null)
    .map(([key, value]) => `${key}=${describeValue(value)}`);
  return [record.level, record.message, ...fields].join(' ');
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : value.map(describeValue).join(',');
  if (typeof value === 'object' && value !== null) {
    const { name, message, cause } = value as { name?: unknown; message?: unknown; cause?: unknown };
    if (typeof message === 'string') {
      const own = `${typeof name === 'string' ? `${name}: ` : ''}${message}`;
      // The cause is what an operator acts on ("the table does not exist"), so it stays on the line.
      const because = typeof cause === 'object' && cause !== null ? ` (cause: ${describeValue(cause)})` : '';
      return truncate(`${own}${because}`, MAX_VALUE_CHARS * 2);
    }
    return truncate(JSON.stringify(value));
  }
  const text = String(value);
  return truncate(/\s/.test(text) ? JSON.stringify(text) : text);
}

function truncate(text: string, max = MAX_VALUE_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
