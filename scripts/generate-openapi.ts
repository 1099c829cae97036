import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../shared/api/openapi.ts';

/** `npm run openapi`: regenerates the committed openapi.json from the route table. */
export const OPENAPI_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));

const document = buildOpenApiDocument();
writeFileSync(OPENAPI_FILE, serializeOpenApiDocument(document));
console.log(`Wrote ${OPENAPI_FILE} (${Object.keys(document.paths ?? {}).length} paths)`);
