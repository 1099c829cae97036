/** One offending field of a `validation_failed` problem. */
export interface FieldError {
  field: string;
  message: string;
}

/** The problem+json body of every 4xx and 5xx (docs/api-guide.md#conventions), with its optional members. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  hint?: string;
  request_id?: string;
  errors?: FieldError[];
  required_scope?: string;
  limit?: number;
  used?: number;
  retry_after?: number;
  [member: string]: unknown;
}

/**
 * A problem answer as an error: branch on `code` (stable), show `detail` and `hint` to a person,
 * quote `request_id` to support. `problem` holds the whole body (e.g. `required_scope`, `limit`).
 */
export class FleetFuelApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly hint: string | undefined;
  readonly errors: FieldError[];
  readonly request_id: string | undefined;
  readonly problem: Problem;

  constructor(status: number, problem: Problem) {
    const code = problem.code ?? `http_${status}`;
    const detail = problem.detail ?? problem.title ?? `The API answered ${status}`;
    super(`${code}: ${detail}`);
    this.name = 'FleetFuelApiError';
    this.status = status;
    this.code = code;
    this.title = problem.title ?? '';
    this.detail = detail;
    this.hint = problem.hint;
    this.errors = problem.errors ?? [];
    this.request_id = problem.request_id;
    this.problem = problem;
  }
}

/** The problem a response carries; a body that is not JSON (a proxy's page) still gives a problem. */
export async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Problem;
  } catch {
    // Not JSON: fall through.
  }
  return { status: response.status, detail: text.slice(0, 200) || response.statusText || undefined };
}
