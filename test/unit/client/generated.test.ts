import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeList } from '#shared/api/route-table.ts';
import { generateClientFiles } from '../../../clients/typescript/codegen.ts';
import { IDEMPOTENT_OPERATIONS } from '../../../clients/typescript/src/generated/idempotent-operations.ts';

describe('the TypeScript client’s generated files', () => {
  it('are what the generator makes from the current openapi.json', async () => {
    for (const [file, expected] of Object.entries(await generateClientFiles())) {
      expect(
        readFileSync(file, 'utf8'),
        `${file} is stale: run \`npm run client:generate\` and commit it`,
      ).toBe(expected);
    }
  }, 60_000);

  it('list exactly the routes the route table marks idempotent', () => {
    const named = (operations: readonly { method: string; path: string }[]) =>
      operations.map(({ method, path }) => `${method} ${path}`).sort();
    const idempotent = routeList.filter((route) => route.idempotent);
    expect(idempotent.length).toBeGreaterThan(0);
    expect(named(IDEMPOTENT_OPERATIONS)).toEqual(named(idempotent));
  });
});
