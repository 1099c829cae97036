/**
 * What the page tells a person when the API refuses: the problem+json `detail` and `hint` (spec
 * section 6), or the status line when the body is not a problem (a proxy's error page).
 */
export interface ProblemMessage {
  status: number;
  text: string;
  hint: string | null;
}

export function problemMessage(status: number, statusText: string, body: unknown): ProblemMessage {
  const problem = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const detail = typeof problem.detail === 'string' ? problem.detail : null;
  const title = typeof problem.title === 'string' ? problem.title : null;
  const hint = typeof problem.hint === 'string' ? problem.hint : null;
  return {
    status,
    text: detail ?? title ?? `The API answered ${status}${statusText ? ` ${statusText}` : ''}.`,
    hint,
  };
}

/** A test key is the only kind the sandbox tools accept; a live key never leaves the page. */
export function keyProblem(key: string): string | null {
  const trimmed = key.trim();
  if (trimmed === '') return 'Enter a test key (it starts with svc_test_).';
  if (!trimmed.startsWith('svc_test_')) {
    return 'The sandbox page takes a test key (svc_test_…); a live key is never sent from it.';
  }
  return null;
}
