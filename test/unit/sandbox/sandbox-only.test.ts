import { describe, expect, it } from 'vitest';
import { sandboxBaseUrl } from '#shared/platform/config.ts';
import { assertSandboxStage, sandboxOnlyError } from '#shared/sandbox/usecases/sandbox-tools.ts';

describe('the sandbox tools on production', () => {
  it('answer 404 naming the sandbox base URL this stage is configured with', () => {
    expect(() => assertSandboxStage('prod', 'https://sandbox.example.test')).toThrow(
      expect.objectContaining({
        code: 'resource_not_found',
        status: 404,
        detail: 'The sandbox tools exist only on the sandbox stage.',
        hint: 'call the sandbox base URL, https://sandbox.example.test, with a test key (svc_test_…)',
      }),
    );
  });

  it('say plainly that the URL is not known, with no placeholder, where it is not configured', () => {
    const { hint } = sandboxOnlyError(undefined);
    expect(hint).toBe(
      'call the sandbox stage’s base URL (this stage is not configured with it) with a test key (svc_test_…)',
    );
    expect(hint).not.toMatch(/[{}]/);
  });

  it('pass on the sandbox stage', () => {
    expect(() => assertSandboxStage('sandbox', undefined)).not.toThrow();
  });
});

describe('sandboxBaseUrl', () => {
  it('reads SANDBOX_BASE_URL without a trailing slash, and nothing when unset or empty', () => {
    expect(sandboxBaseUrl({ SANDBOX_BASE_URL: 'https://abc.execute-api.us-east-1.amazonaws.com/' })).toBe(
      'https://abc.execute-api.us-east-1.amazonaws.com',
    );
    expect(sandboxBaseUrl({})).toBeUndefined();
    expect(sandboxBaseUrl({ SANDBOX_BASE_URL: '' })).toBeUndefined();
  });
});
