import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { functionFile } from '#local/function-loader.ts';
import { FUNCTION_FILE_HEADER } from '#local/http-adapter.ts';
import { requireShim } from '#scripts/bundle-functions.ts';
import { accountOperations } from '#shared/accounts/api/operations.ts';
import { agentOperations } from '#shared/agents/api/operations.ts';
import { fallbackOperation } from '#shared/api/route-table.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { E2E_FUNCTION_CODE_ENV } from '../support/local-stack.global-setup.ts';

/**
 * Smoke test of the e2e harness: both stages answer, with the keys of the credentials file, and
 * the gateway's fallback turns an unknown route into the 404 problem.
 */
describe('the stage under test', () => {
  const credentials = loadCredentials();
  const prod = api(credentials.base_url);
  const sandbox = api(credentials.sandbox_base_url);

  it('answers GET /v1/me on the prod stage for the company live key', async () => {
    const response = await prod.get('/v1/me', { key: credentials.keys.company_live });

    expect(response.status, response.text).toBe(200);
  });

  it('answers GET /v1/me on the sandbox stage for the company test key', async () => {
    const response = await sandbox.get('/v1/me', { key: credentials.keys.company_test });

    expect(response.status, response.text).toBe(200);
  });

  it('serves the OpenAPI document anonymously', async () => {
    const response = await prod.get('/v1/openapi.json');

    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
  });

  it('answers an unknown route with a 404 problem', async () => {
    const response = await prod.get('/v1/nope', { key: credentials.keys.company_live });

    expect(response.status, response.text).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

/**
 * The e2e suite tests what deploys: unless E2E_FUNCTION_CODE=sources, every function answers from
 * its bundle (scripts/bundle-functions.ts), as esbuild wrote it, and never from its TypeScript module.
 */
describe.runIf(isLocalTarget())('the code the local stack runs', () => {
  const credentials = loadCredentials();
  const prod = api(credentials.base_url);
  const sandbox = api(credentials.sandbox_base_url);
  const runsSources = process.env[E2E_FUNCTION_CODE_ENV] === 'sources';
  const requests = [
    {
      what: 'a route on prod',
      call: () => prod.get('/v1/me', { key: credentials.keys.company_live }),
      fn: accountOperations.getMe,
    },
    {
      what: 'a route on the sandbox',
      call: () => sandbox.get('/v1/me', { key: credentials.keys.company_test }),
      fn: accountOperations.getMe,
    },
    { what: 'the fallback', call: () => prod.get('/v1/nope'), fn: fallbackOperation },
    // Two routes of one source module: each has a bundle of its own, as each has a Lambda.
    { what: 'the guide', call: () => prod.get('/v1/llms.txt'), fn: agentOperations.getLlmsTxt },
    { what: 'the guide at the root', call: () => prod.get('/llms.txt'), fn: agentOperations.getRootLlmsTxt },
  ];

  it.each(requests)(
    'answers $what from its bundle as esbuild wrote it (from its module with E2E_FUNCTION_CODE=sources)',
    async ({ call, fn }) => {
      const bundles = inject('e2eFunctionBundles');

      const response = await call();
      const file = response.headers.get(FUNCTION_FILE_HEADER);

      if (runsSources) {
        expect(bundles).toBe('');
        expect(file).toBe(functionFile({ name: fn.operationId, handler: fn.handler }));
        return;
      }
      expect(bundles, 'the e2e setup started the stack on the bundles').not.toBe('');
      expect(file).toBe(join(bundles, fn.operationId, 'index.mjs'));
      // The bundle's build-time banner: the esbuild output, not a source module under another name.
      expect(readFileSync(file ?? '', 'utf8').startsWith(requireShim)).toBe(true);
    },
  );
});
