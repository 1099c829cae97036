import { expect } from 'vitest';
import type { ApiResponse } from '../support/http-client.ts';

/** Asserts the spec's problem+json envelope (section 7) with the given status and code. */
interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  hint: string;
  request_id: string;
}

export function expectProblem(response: ApiResponse<Problem>, status: number, code: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = response.json;
  expect(problem.code).toBe(code);
  expect(problem.status).toBe(status);
  expect(problem.type).toMatch(new RegExp(`/v1/errors#${code}$`));
  expect(problem.title).toBeTypeOf('string');
  expect(problem.detail).toBeTypeOf('string');
  expect(problem.hint).toBeTypeOf('string');
  expect(problem.request_id).toMatch(/^req_/);
  expect(response.headers.get('request-id')).toBe(problem.request_id);
  expect(response.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
}
