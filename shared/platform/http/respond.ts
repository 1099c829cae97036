import { type ApiError, toProblem } from '../errors.ts';
import { emitProblem } from '../usage-metrics.ts';
import { canonicalJson, JSON_CONTENT_TYPE, PROBLEM_CONTENT_TYPE } from './json.ts';
import type { HttpResponse, HttpResult } from './types.ts';

export const REQUEST_ID_HEADER = 'Request-Id';

export function successResponse(
  result: HttpResult,
  requestId: string,
  chainHeaders: Record<string, string>,
): HttpResponse {
  const headers: Record<string, string> = {
    ...chainHeaders,
    [REQUEST_ID_HEADER]: requestId,
    ...result.headers,
  };
  if (result.status === 204 || result.body === undefined) {
    return { statusCode: result.status, headers, body: '' };
  }
  // A text document (the llms.txt guide) goes out as written, not as a JSON string.
  if (typeof result.body === 'string' && result.headers?.['Content-Type']?.startsWith('text/')) {
    return { statusCode: result.status, headers, body: result.body };
  }
  return {
    statusCode: result.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers },
    body: canonicalJson(result.body),
  };
}

export function problemResponse(
  error: ApiError,
  requestId: string,
  baseUrl: string,
  chainHeaders: Record<string, string>,
): HttpResponse {
  // Every problem passes here, whichever middleware or handler raised it.
  emitProblem(error.code, error.status);
  return {
    statusCode: error.status,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      ...chainHeaders,
      ...error.headers,
      [REQUEST_ID_HEADER]: requestId,
    },
    body: canonicalJson(toProblem(error, requestId, baseUrl)),
  };
}
