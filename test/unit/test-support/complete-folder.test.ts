import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeFolder } from '#test/support/complete-folder.ts';

let root: string;
let folder: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'complete-folder-test-'));
  folder = join(root, 'cache', 'browser');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function writer(content: string) {
  return vi.fn(async (staging: string) => writeFileSync(join(staging, 'binary'), content));
}

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('completeFolder', () => {
  it('fills the folder once and reuses it after', async () => {
    // Prepare
    const fill = writer('build 1');

    // Act
    const first = await completeFolder(folder, fill);
    const second = await completeFolder(folder, writer('build 2'));

    // Assess
    expect([first, second]).toEqual([folder, folder]);
    expect(fill).toHaveBeenCalledOnce();
    expect(readFileSync(join(folder, 'binary'), 'utf8')).toBe('build 1');
    expect(readdirSync(join(root, 'cache'))).toEqual(['browser']);
  });

  it('lets racing fills both finish: the first rename wins, the other is discarded', async () => {
    // Prepare: the first fill finishes only after the second one has started.
    const secondStarted = deferred();
    const firstFill = vi.fn(async (staging: string) => {
      writeFileSync(join(staging, 'binary'), 'first');
      await secondStarted.promise;
    });
    const secondFill = vi.fn(async (staging: string) => {
      writeFileSync(join(staging, 'binary'), 'second');
      secondStarted.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    });

    // Act
    const results = await Promise.all([
      completeFolder(folder, firstFill),
      completeFolder(folder, secondFill),
    ]);

    // Assess
    expect(results).toEqual([folder, folder]);
    expect(firstFill).toHaveBeenCalledOnce();
    expect(secondFill).toHaveBeenCalledOnce();
    expect(readFileSync(join(folder, 'binary'), 'utf8')).toBe('first');
    expect(readdirSync(join(root, 'cache'))).toEqual(['browser']);
  });

  it('leaves nothing behind when the fill fails, and says why', async () => {
    // Prepare
    const fill = async (staging: string) => {
      writeFileSync(join(staging, 'binary'), 'half a brow');
      throw new Error('disk full');
    };

    // Act
    const attempt = completeFolder(folder, fill);

    // Assess
    await expect(attempt).rejects.toThrow('disk full');
    expect(existsSync(folder)).toBe(false);
    expect(readdirSync(join(root, 'cache'))).toEqual([]);
  });

  it('removes a staging folder a killed run left long ago, and keeps one still being filled', async () => {
    // Prepare
    const abandoned = join(root, 'cache', 'browser.filling-abandoned');
    const inProgress = join(root, 'cache', 'browser.filling-in-progress');
    mkdirSync(abandoned, { recursive: true });
    mkdirSync(inProgress);
    const anHourAgo = new Date(Date.now() - 60 * 60_000);
    utimesSync(abandoned, anHourAgo, anHourAgo);

    // Act
    await completeFolder(folder, writer('build'));

    // Assess
    expect(readdirSync(join(root, 'cache')).sort()).toEqual(['browser', 'browser.filling-in-progress']);
  });
});
