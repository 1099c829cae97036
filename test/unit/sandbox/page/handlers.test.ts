import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handler as pageHandler } from '#functions/http/sandbox/get-sandbox-page.ts';
import { handler as assetHandler } from '#functions/http/sandbox/get-sandbox-page-asset.ts';
import { httpEvent, lambdaContext } from '#test/unit/fixtures.ts';
import { buildSandboxScript } from '../../../../web/sandbox/build.ts';
import { SANDBOX_PAGE_CSP, SANDBOX_PAGE_CSS } from '../../../../web/sandbox/page.ts';

async function get(path: string, pathParameters?: Record<string, string>) {
  const call = path === '/sandbox' ? pageHandler : assetHandler;
  const response = await call(httpEvent({ method: 'GET', path, pathParameters }), lambdaContext());
  return {
    status: response.statusCode,
    headers: (response.headers ?? {}) as Record<string, string>,
    body: String(response.body ?? ''),
  };
}

const stageBefore = process.env.STAGE;
const sandboxUrlBefore = process.env.SANDBOX_BASE_URL;
afterEach(() => {
  if (stageBefore === undefined) delete process.env.STAGE;
  else process.env.STAGE = stageBefore;
  if (sandboxUrlBefore === undefined) delete process.env.SANDBOX_BASE_URL;
  else process.env.SANDBOX_BASE_URL = sandboxUrlBefore;
});

describe('the sandbox page on the sandbox stage', () => {
  beforeEach(() => {
    process.env.STAGE = 'sandbox';
  });

  it('serves the HTML with a self-only Content-Security-Policy and loads only its own files', async () => {
    // Act
    const response = await get('/sandbox');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(response.headers['Content-Security-Policy']).toBe(SANDBOX_PAGE_CSP);
    expect(SANDBOX_PAGE_CSP).toContain("default-src 'none'");
    expect(SANDBOX_PAGE_CSP).not.toMatch(/unsafe|https?:|\*/);
    const sources = [...response.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual([
      '/sandbox/assets/favicon.svg',
      '/sandbox/assets/app.css',
      '/sandbox/assets/app.js',
    ]);
    expect(response.body).not.toMatch(/<script>|<style|style="/);
  });

  it('labels the key input and every control', async () => {
    // Act
    const { body } = await get('/sandbox');

    // Assess
    expect(body).toMatch(/<label for="key">Test key<\/label>\s*<input id="key"[^>]*type="password"/);
    const buttons = [...body.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((match) => match[1]?.trim());
    expect(buttons).toEqual([
      'Connect',
      'Forget key',
      'Advance 15 minutes',
      'Advance 1 hour',
      'Reset sandbox',
    ]);
    expect(body).toContain('role="alert"');
  });

  it('serves the bundled script and the stylesheet', async () => {
    // Act
    const script = await get('/sandbox/assets/app.js', { file: 'app.js' });
    const css = await get('/sandbox/assets/app.css', { file: 'app.css' });

    // Assess
    expect(script.status).toBe(200);
    expect(script.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe(await buildSandboxScript());
    expect(css.status).toBe(200);
    expect(css.headers['Content-Type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe(SANDBOX_PAGE_CSS);
  });

  it('answers any other asset 404 naming those it has', async () => {
    // Act
    const response = await get('/sandbox/assets/secrets.json', { file: 'secrets.json' });

    // Assess
    expect(response.status).toBe(404);
    expect(response.headers['Content-Type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body)).toMatchObject({
      code: 'resource_not_found',
      hint: 'the page loads only app.js, app.css, favicon.svg',
    });
  });
});

describe('the sandbox page on the production stage', () => {
  beforeEach(() => {
    process.env.STAGE = 'prod';
  });

  it.each([
    ['/sandbox', undefined],
    ['/sandbox/assets/app.js', { file: 'app.js' }],
  ])('%s is 404 with a hint to the sandbox base URL', async (path, pathParameters) => {
    // Prepare
    process.env.SANDBOX_BASE_URL = 'https://sandbox.example.test/';

    // Act
    const response = await get(path, pathParameters);

    // Assess
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({
      code: 'resource_not_found',
      detail: `${path} is served only by the sandbox stage.`,
      hint: `open https://sandbox.example.test${path} (the sandbox stage)`,
    });
  });

  it('says which stage serves the page, without a placeholder, where the URL is not configured', async () => {
    // Prepare
    delete process.env.SANDBOX_BASE_URL;

    // Act
    const response = await get('/sandbox');

    // Assess
    expect(JSON.parse(response.body).hint).toBe('open /sandbox on the sandbox stage’s base URL');
  });
});
