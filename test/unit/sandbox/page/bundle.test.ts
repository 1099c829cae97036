import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFunctions } from '#scripts/bundle-functions.ts';
import { pageOperations } from '#shared/api/route-table.ts';
import { httpEvent, lambdaContext } from '#test/unit/fixtures.ts';
import { buildSandboxScript } from '../../../../web/sandbox/build.ts';

const workDir = mkdtempSync(join(tmpdir(), 'sandbox-page-bundle-'));
const stageBefore = process.env.STAGE;
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  if (stageBefore === undefined) delete process.env.STAGE;
  else process.env.STAGE = stageBefore;
});

describe('the sandbox page asset function as deployed', () => {
  it('serves the prebuilt script from its bundle, with no bundler inside', async () => {
    // Arrange
    const { getSandboxPageAsset } = pageOperations;
    const { outdir, metafilePath } = await bundleFunctions({
      outdir: join(workDir, 'functions'),
      entries: [{ name: getSandboxPageAsset.operationId, handler: getSandboxPageAsset.handler }],
    });
    const inputs = Object.keys(
      JSON.parse(readFileSync(metafilePath, 'utf8')).inputs as Record<string, unknown>,
    );
    const bundled = (await import(
      pathToFileURL(join(outdir, getSandboxPageAsset.operationId, 'index.mjs')).href
    )) as {
      handler: typeof import('#functions/http/sandbox/get-sandbox-page-asset.ts').handler;
    };
    process.env.STAGE = 'sandbox';

    // Act
    const response = await bundled.handler(
      httpEvent({ method: 'GET', path: '/sandbox/assets/app.js', pathParameters: { file: 'app.js' } }),
      lambdaContext(),
    );

    // Assess
    expect(inputs.some((input) => input.includes('node_modules/esbuild'))).toBe(false);
    expect(inputs.some((input) => input.endsWith('web/sandbox/build.ts'))).toBe(false);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(await buildSandboxScript());
    // Two esbuild runs: about 2 s alone, several times that on a busy machine.
  }, 30_000);
});
