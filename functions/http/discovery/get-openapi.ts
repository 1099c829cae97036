import document from '../../../openapi.json' with { type: 'json' };
import { discoveryRoutes } from '../../../shared/api/routes/discovery.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

/** The generated document, with `servers` pointing at the stage that answers. */
export const handler = httpHandler(discoveryRoutes.getOpenApi, async (_input, context) =>
  ok({ ...document, servers: [{ url: context.baseUrl, description: `${context.stage} stage` }] }),
);
