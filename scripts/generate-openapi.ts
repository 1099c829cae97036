import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildAdminOpenApiDocument } from '#shared/admin/api/openapi.ts';
import { buildOpenApiDocument, serializeOpenApiDocument } from '#shared/api/openapi.ts';

/**
 * `npm run openapi`: regenerates the committed openapi.json from the route table, and
 * admin-openapi.json from the operator route table.
 */
export const OPENAPI_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));
export const ADMIN_OPENAPI_FILE = fileURLToPath(new URL('../admin-openapi.json', import.meta.url));

for (const [file, document] of [
  [OPENAPI_FILE, buildOpenApiDocument()],
  [ADMIN_OPENAPI_FILE, buildAdminOpenApiDocument()],
] as const) {
  writeFileSync(file, serializeOpenApiDocument(document));
  console.log(`Wrote ${file} (${Object.keys(document.paths ?? {}).length} paths)`);
}
