import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Test files share their worker's modules (vitest.config.ts: `isolate: false`), so what one file
 * patches, the files after it see. These are the rules that keep that safe, checked on the source
 * of every test file.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const testFiles = ['test/unit', 'local', 'test/integration', 'test/e2e', 'test/cdk']
  .flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).map((name) =>
      join(root, folder, name),
    ),
  )
  .filter((path) => path.endsWith('.test.ts'))
  .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

function using(pattern: RegExp): string[] {
  return testFiles.filter(({ text }) => pattern.test(text)).map(({ path }) => path);
}

/** The files that use `uses` without also calling `undoes`. */
function leaking(uses: RegExp, undoes: RegExp): string[] {
  return testFiles.filter(({ text }) => uses.test(text) && !undoes.test(text)).map(({ path }) => path);
}

describe('test files that share modules leave no state behind', () => {
  it('finds the test files of every project', () => {
    expect(testFiles.length).toBeGreaterThan(100);
    expect(testFiles.map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        'test/unit/test-support/shared-modules.test.ts',
        'test/integration/events/events.test.ts',
      ]),
    );
  });

  it('mock no module: a module mock would reach the files after, and miss modules loaded before', () => {
    expect(using(/\bvi\.(?:do)?mock\(/)).toEqual([]);
  });

  it('restore every AWS client class they mock with aws-sdk-client-mock', () => {
    expect(leaking(/\bmockClient\(/, /\.restore\(\)/)).toEqual([]);
  });

  it('unstub the environment variables and globals they stub, and put real timers back', () => {
    expect(leaking(/\bvi\.stubEnv\(/, /\bvi\.unstubAllEnvs\(\)/)).toEqual([]);
    expect(leaking(/\bvi\.stubGlobal\(/, /\bvi\.unstubAllGlobals\(\)/)).toEqual([]);
    expect(leaking(/\bvi\.useFakeTimers\(/, /\bvi\.useRealTimers\(\)/)).toEqual([]);
  });

  it('restore what they spy on: a spy replaces the method on the shared object itself', () => {
    expect(leaking(/\bvi\.spyOn\(/, /\.mockRestore\(\)|\bvi\.restoreAllMocks\(\)/)).toEqual([]);
  });
});
