import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';

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
