import document from '../../admin-openapi.json' with { type: 'json' };
import { adminRoutes } from '../../shared/api/admin-routes.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { adminHandler } from '../../shared/wiring/admin.ts';

/** The generated operator document, with `servers` pointing at the stage that answers. */
export const handler = adminHandler(adminRoutes.getAdminOpenApi, async (_input, context) =>
  ok({
    ...document,
    servers: [{ url: context.baseUrl, description: `${context.stage} stage (operator API)` }],
  }),
);
