import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md walks through adding a feature, naming the files a feature touches and the
 * feature each step is modelled on: every file it names must exist, so the walkthrough stays true
 * when files move.
 */
const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');
const walkthrough = doc.split('### Adding a feature')[1]?.split('\n## ')[0] ?? '';
const root = new URL('../../../', import.meta.url);

/** The repository paths the walkthrough names in code spans, the new feature's own (`widgets`) aside. */
const namedFiles = [...walkthrough.matchAll(/`((?:shared|functions|lib|test|scripts)\/[^`\s]+\.ts)`/g)]
  .map((match) => match[1] as string)
  .filter((path) => !path.includes('widgets'));

describe('the "adding a feature" walkthrough', () => {
  it('names the files of the feature it is modelled on and of each assembly', () => {
    expect(namedFiles.length).toBeGreaterThan(12);
    expect(namedFiles).toEqual(
      expect.arrayContaining([
        'shared/api/route-table.ts',
        'shared/trips/store/trips.ts',
        'lib/table-access.ts',
      ]),
    );
  });

  it('names only files that exist', () => {
    expect(namedFiles.filter((path) => !existsSync(new URL(path, root)))).toEqual([]);
  });

  it('lays the new feature out like the feature it is modelled on', () => {
    const newFiles = [...walkthrough.matchAll(/`(shared\/widgets\/[^`\s]+)`/g)].map(
      (match) => match[1] as string,
    );
    const layers = new Set(newFiles.map((path) => path.split('/')[2]));
    expect([...layers].sort()).toEqual(['api', 'domain', 'store', 'usecases', 'wiring']);
    for (const layer of layers) expect(existsSync(new URL(`shared/trips/${layer}/`, root))).toBe(true);
  });
});
