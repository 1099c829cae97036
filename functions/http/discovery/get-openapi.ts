import document from '../../../openapi.json' with { type: 'json' };
import { routes } from '../../../shared/api/routes.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';

/** The generated document, with `servers` pointing at the stage that answers. */
export const handler = createHttpHandler(routes.getOpenApi, async (_input, context) =>
  ok({ ...document, servers: [{ url: context.baseUrl, description: `${context.stage} stage` }] }),
);
