import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeList } from '#shared/api/route-table.ts';

const guide = readFileSync(new URL('../../docs/api-guide.md', import.meta.url), 'utf8');

/** The API guide's scope table is published documentation; it must not drift from the route table. */
describe('docs/api-guide.md scope table', () => {
  // Cells are compared trimmed, so re-aligning the Markdown table does not matter.
  const rows = guide
    .split('\n')
    .filter((line) => /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`\/(v1\/|llms\.txt)/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim())
        .join(' | '),
    );

  it.each(routeList.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'lists %s',
    (_name, route) => {
      const scope = route.scope
        ? `\`${route.scope}\``
        : route.access === 'anonymous'
          ? 'none (anonymous)'
          : 'any valid key';
      const expected = `${route.method} | \`${route.path}\` | ${scope} | ${route.access} | ${route.family ?? 'exempt'}`;
      expect(rows).toContain(expected);
    },
  );

  it('lists every route once and no route that does not exist', () => {
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows).toHaveLength(routeList.length);
  });
});
