import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The generated OpenAPI documents the discovery routes serve, read and parsed on their first
 * request instead of imported. Imported, the public document is ~450 KB of object literal a cold
 * start evaluates (getOpenApi was the largest bundle); `JSON.parse` of the file costs a few
 * milliseconds once per container, and the response is the same bytes.
 *
 * Run from source (tests, the local stack) the committed files are read where they live. The
 * Lambda bundles replace this module with one reading the copies written beside the bundle
 * (scripts/bundle-functions.ts, `lazyDataFiles`), under the names below.
 */
export const PUBLISHED_DOCUMENTS = {
  /** GET /v1/openapi.json (scripts/generate-openapi.ts). */
  openApi: {
    name: 'openapi.json',
    source: fileURLToPath(new URL('../../openapi.json', import.meta.url)),
  },
  /** GET /admin/v1/openapi.json (scripts/generate-openapi.ts). */
  adminOpenApi: {
    name: 'admin-openapi.json',
    source: fileURLToPath(new URL('../../admin-openapi.json', import.meta.url)),
  },
} as const;

export type PublishedDocument = keyof typeof PUBLISHED_DOCUMENTS;

function readPublishedDocument(document: PublishedDocument): Record<string, unknown> {
  return JSON.parse(readFileSync(PUBLISHED_DOCUMENTS[document].source, 'utf8'));
}

// One reader per document, so a bundle ships only the document it serves. The caller caches the
// parsed document (each is read once per process).

export const readOpenApiDocument = (): Record<string, unknown> => readPublishedDocument('openApi');

export const readAdminOpenApiDocument = (): Record<string, unknown> => readPublishedDocument('adminOpenApi');
