import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { publishedMembers } from '#shared/api/openapi-members.ts';

/**
 * Freezes the members a published openapi.json promises (test/fixtures/v1-published-members.json),
 * so the "no v1 member removed" test compares against the published document without git:
 *
 *   git show <published commit>:openapi.json > /tmp/published-openapi.json
 *   npx tsx scripts/freeze-published-members.ts /tmp/published-openapi.json
 */
export const PUBLISHED_MEMBERS_FILE = fileURLToPath(
  new URL('../test/fixtures/v1-published-members.json', import.meta.url),
);

const source = process.argv[2];
if (!source) {
  console.error('usage: npx tsx scripts/freeze-published-members.ts <published openapi.json>');
  process.exit(2);
}
const members = publishedMembers(JSON.parse(readFileSync(source, 'utf8')));
// One member a line: a reviewer reads the diff when the published document is frozen again.
writeFileSync(PUBLISHED_MEMBERS_FILE, `[\n${members.map((m) => JSON.stringify(m)).join(',\n')}\n]\n`);
console.log(`Wrote ${PUBLISHED_MEMBERS_FILE} (${members.length} members)`);
