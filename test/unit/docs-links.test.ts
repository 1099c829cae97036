import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLink, headingAnchors, linkTargets } from '../support/markdown-links.ts';

/**
 * The README and docs/ are read on GitHub and in a checkout alike, so every link must resolve to a
 * file in the repository (and a `#fragment` to a heading of that file); nothing may point outside
 * it — no `../` past the root, no absolute paths, no URLs.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('links in README.md and docs/*.md', () => {
  it.each(documents)('%s: every link resolves to a file (and heading) in the repository', (document) => {
    const markdown = readFileSync(join(root, document), 'utf8');
    const broken = linkTargets(markdown).flatMap((target) => {
      const reason = brokenLink(root, document, target);
      return reason ? [`${target} — ${reason}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('the README links to every document in docs/', () => {
    const readme = linkTargets(readFileSync(join(root, 'README.md'), 'utf8'));
    for (const document of documents.filter((name) => name.startsWith('docs/'))) {
      expect(readme).toContain(document);
    }
  });
});

describe('the link checker', () => {
  const document = 'docs/api-guide.md';

  it('finds inline links, images and reference definitions, but not code', () => {
    const markdown = [
      'See [the guide](docs/api-guide.md#conventions) and ![a map](map.png "Map").',
      '[spec]: ../shared/spec/api-v1.md',
      'Not a link: `[x](y.md)`.',
      '```md',
      '[inside](a-fence.md)',
      '```',
    ].join('\n');
    expect(linkTargets(markdown)).toEqual([
      'docs/api-guide.md#conventions',
      'map.png',
      '../shared/spec/api-v1.md',
    ]);
  });

  it('refuses links outside the repository, missing files and missing headings', () => {
    expect(brokenLink(root, 'README.md', '../shared/spec/api-v1.md')).toBe('points outside the repository');
    expect(brokenLink(root, document, '../../shared/DESIGN.md')).toBe('points outside the repository');
    expect(brokenLink(root, document, 'https://example.com/spec')).toMatch(/outside the repository/);
    expect(brokenLink(root, document, '/etc/passwd')).toMatch(/absolute path/);
    expect(brokenLink(root, document, 'missing.md')).toBe('no such file: docs/missing.md');
    expect(brokenLink(root, document, 'decisions.md#no-such-heading')).toBe(
      'no heading #no-such-heading in docs/decisions.md',
    );
  });

  it('accepts files, folders and headings that exist', () => {
    expect(brokenLink(root, document, '../openapi.json')).toBeUndefined();
    expect(brokenLink(root, document, '../webhooks-receiver/')).toBeUndefined();
    expect(brokenLink(root, document, 'decisions.md#arrival-margin-default')).toBeUndefined();
    expect(brokenLink(root, document, '#conventions')).toBeUndefined();
  });

  it('makes anchors as GitHub does', () => {
    expect([...headingAnchors('# Quickstart: your first hour\n## The fuel plan\n## The fuel plan')]).toEqual([
      'quickstart-your-first-hour',
      'the-fuel-plan',
      'the-fuel-plan-1',
    ]);
    expect(headingAnchors('### Scopes and access (every route)').has('scopes-and-access-every-route')).toBe(
      true,
    );
  });
});
