import { agentOperations } from '#shared/agents/api/operations.ts';
import { renderLlmsGuide, renderMethodology } from '#shared/agents/llms/guide.ts';
import { httpHandler } from '#shared/wiring/http.ts';

/**
 * Served at /v1/llms.txt and /llms.txt (two routes, one module): rendered per stage and base URL;
 * `?section=savings-methodology` answers that section alone (the savings report's link).
 */
export const handler = httpHandler(agentOperations.getLlmsTxt, async ({ query }, context) => {
  const settings = { baseUrl: context.baseUrl, stage: context.stage };
  return {
    status: 200,
    headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
    body: query.section ? renderMethodology(settings) : renderLlmsGuide(settings),
  };
});
