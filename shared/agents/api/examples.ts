import { type ExamplesFor, rejected } from '#shared/api/example.ts';
import { IDS } from '#shared/api/example-fixtures.ts';
import type { agentOperations } from './operations.ts';
import { guideQuery, jsonRpcMessage } from './operations.ts';

const GUIDE_EXCERPT =
  '# Fleet Fuel Guidance API\n\n> HTTP/JSON API for truck fleets: stream vehicle breadcrumbs with tank level, get live fuel-stop guidance, …\n\n## Basics\n\n- Base URL: `https://api.fleetfuel.example.com` (this is the production stage). …\n';

export const agentExamples = {
  mcp: {
    request: {
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_vehicle', arguments: { id: 'ext:TRUCK-042' } },
      },
    },
    responses: {
      200: {
        jsonrpc: '2.0',
        id: 2,
        result: {
          content: [{ type: 'text', text: JSON.stringify({ id: IDS.vehicle, external_ref: 'TRUCK-042' }) }],
          structuredContent: { id: IDS.vehicle, external_ref: 'TRUCK-042' },
        },
      },
    },
    // Not JSON-RPC 2.0 at all: refused before the MCP transport sees it.
    problem: rejected('body', jsonRpcMessage, { jsonrpc: '1.0', method: 'tools/list' }),
  },
  getLlmsTxt: {
    request: { query: {} },
    responses: { 200: GUIDE_EXCERPT },
    problem: rejected('query', guideQuery, { section: 'pricing' }),
  },
  getRootLlmsTxt: {
    request: { query: {} },
    responses: { 200: GUIDE_EXCERPT },
    problem: rejected('query', guideQuery, { format: 'html' }),
  },
} satisfies ExamplesFor<typeof agentOperations>;
