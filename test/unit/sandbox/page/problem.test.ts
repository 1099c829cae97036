import { describe, expect, it } from 'vitest';
import { keyProblem, problemMessage } from '../../../../web/sandbox/problem.ts';

describe('problemMessage', () => {
  it('shows the problem detail and hint', () => {
    // Act
    const message = problemMessage(422, 'Unprocessable Content', {
      type: 'https://x/errors/validation_failed',
      title: 'Validation failed',
      detail: 'scenario must be one of normal, low_fuel',
      hint: 'send one of the listed scenarios',
    });

    // Assess
    expect(message).toEqual({
      status: 422,
      text: 'scenario must be one of normal, low_fuel',
      hint: 'send one of the listed scenarios',
    });
  });

  it('falls back to the title, then to the status line when the body is not a problem', () => {
    expect(problemMessage(403, 'Forbidden', { title: 'Forbidden' }).text).toBe('Forbidden');
    expect(problemMessage(502, 'Bad Gateway', null)).toEqual({
      status: 502,
      text: 'The API answered 502 Bad Gateway.',
      hint: null,
    });
  });
});

describe('keyProblem', () => {
  it('accepts a test key and refuses an empty or live key before anything is sent', () => {
    expect(keyProblem(' svc_test_abc ')).toBeNull();
    expect(keyProblem('')).toMatch(/svc_test_/);
    expect(keyProblem('svc_live_abc')).toMatch(/test key/);
  });
});
