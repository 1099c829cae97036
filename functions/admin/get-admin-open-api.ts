import { getAdminOpenApiOperation } from '#shared/admin/api/operations.ts';
import { adminHandler } from '#shared/admin/wiring/admin.ts';
import { readAdminOpenApiDocument } from '#shared/api/published-documents.ts';
import { ok } from '#shared/platform/http/types.ts';

let document: Record<string, unknown> | undefined;

/** The generated operator document, with `servers` pointing at the stage that answers. */
export const handler = adminHandler(getAdminOpenApiOperation, async (_input, context) => {
  document ??= readAdminOpenApiDocument();
  return ok({
    ...document,
    servers: [{ url: context.baseUrl, description: `${context.stage} stage (operator API)` }],
  });
});
