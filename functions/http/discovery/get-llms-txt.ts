import { agentRoutes } from '../../../shared/api/routes/agents.ts';
import { renderLlmsGuide } from '../../../shared/llms/guide.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

/** Served at /v1/llms.txt and /llms.txt (two routes, one module): rendered per stage and base URL. */
export const handler = httpHandler(agentRoutes.getLlmsTxt, async (_input, context) => ({
  status: 200,
  headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  body: renderLlmsGuide({ baseUrl: context.baseUrl, stage: context.stage }),
}));
