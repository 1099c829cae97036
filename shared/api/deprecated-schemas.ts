import * as z from 'zod/mini';

/**
 * A published member kept for v1 clients (removing one would be a breaking change): marked
 * deprecated in the OpenAPI document, with what it holds now and the member to read instead.
 */
export const deprecated = (holds: string, readInstead: string) =>
  z.meta({ deprecated: true, description: `Deprecated: read \`${readInstead}\` instead. ${holds}` });
