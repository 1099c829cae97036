import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentOperations } from '#shared/agents/api/operations.ts';
import { createFunctionLoader, functionFile } from './function-loader.ts';

const bundlesDir = mkdtempSync(join(tmpdir(), 'function-loader-'));
afterAll(() => rmSync(bundlesDir, { recursive: true, force: true }));

/** A stand-in bundle: its handler answers with the folder it was written to. */
function writeBundle(name: string): void {
  mkdirSync(join(bundlesDir, name), { recursive: true });
  writeFileSync(
    join(bundlesDir, name, 'index.mjs'),
    `export const handler = async () => ({ bundle: ${JSON.stringify(name)} });`,
  );
}

describe('createFunctionLoader', () => {
  const { getLlmsTxt, getRootLlmsTxt } = agentOperations;

  it('loads a function from its own bundle, by name, even when two functions share a source module', async () => {
    // Prepare
    writeBundle(getLlmsTxt.operationId);
    writeBundle(getRootLlmsTxt.operationId);
    const load = createFunctionLoader({ bundlesDir });

    // Act
    const [first, second] = await Promise.all(
      [getLlmsTxt, getRootLlmsTxt].map(({ operationId, handler }) => load({ name: operationId, handler })),
    );

    // Assess
    expect(getLlmsTxt.handler).toBe(getRootLlmsTxt.handler);
    expect(first?.file).toBe(join(bundlesDir, 'getLlmsTxt', 'index.mjs'));
    expect(await first?.handler({} as never, {} as never)).toEqual({ bundle: 'getLlmsTxt' });
    expect(second?.file).toBe(join(bundlesDir, 'getRootLlmsTxt', 'index.mjs'));
    expect(await second?.handler({} as never, {} as never)).toEqual({ bundle: 'getRootLlmsTxt' });
  });

  it('loads the source module without a bundles folder', async () => {
    const load = createFunctionLoader();

    const loaded = await load({ name: getLlmsTxt.operationId, handler: getLlmsTxt.handler });

    expect(loaded.file).toBe(functionFile({ name: 'any', handler: getLlmsTxt.handler }));
    expect(loaded.file.endsWith(getLlmsTxt.handler)).toBe(true);
    expect(loaded.handler).toBe((await import('#functions/http/agents/get-llms-txt.ts')).handler);
  });

  it('says which bundle is missing, and finds it once it is written', async () => {
    const load = createFunctionLoader({ bundlesDir });
    const fn = { name: 'writtenLater', handler: 'functions/none.ts' };

    await expect(load(fn)).rejects.toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
    writeBundle('writtenLater');

    expect((await load(fn)).file).toBe(join(bundlesDir, 'writtenLater', 'index.mjs'));
  });
});
