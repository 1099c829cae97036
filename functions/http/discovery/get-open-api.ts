import { readOpenApiDocument } from '#shared/api/published-documents.ts';
import { getOpenApiOperation } from '#shared/discovery/api/operations.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

let document: Record<string, unknown> | undefined;

/** The generated document, with `servers` pointing at the stage that answers. */
export const handler = httpHandler(getOpenApiOperation, async (_input, context) => {
  document ??= readOpenApiDocument();
  return ok({ ...document, servers: [{ url: context.baseUrl, description: `${context.stage} stage` }] });
});
