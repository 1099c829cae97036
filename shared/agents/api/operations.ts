import * as z from 'zod/mini';
import { ANY_KEY, NO_KEY, routeGroup } from '#shared/api/route-group.ts';
import { SAVINGS_METHODOLOGY_ANCHOR } from '#shared/fuelings/domain/methodology.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';

/**
 * One JSON-RPC 2.0 message (request, notification or response). The MCP transport checks the rest
 * and answers protocol errors the JSON-RPC way; this only refuses what is not JSON-RPC at all.
 */
export const jsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0', { error: 'jsonrpc must be "2.0": the body is one JSON-RPC 2.0 message' }),
});

/**
 * The same message as openapi.json publishes it: its members named. Not used to parse (the
 * transport answers a malformed message the JSON-RPC way); an object that declares no
 * `additionalProperties` takes other members too, as the loose schema above does.
 */
const mcpObject = (description: string) =>
  z.looseObject({}).check(z.meta({ description, additionalProperties: true }));
export const publishedJsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z
      .optional(z.union([z.string(), z.number().check(z.int())]))
      .check(z.meta({ description: 'A request’s id, echoed by its response; a notification has none' })),
    method: z
      .optional(z.string())
      .check(
        z.meta({ description: 'A request or notification, e.g. `initialize`, `tools/list`, `tools/call`' }),
      ),
    params: z.optional(mcpObject('The method’s parameters, as the MCP specification defines them')),
    result: z.optional(mcpObject('A response’s result, as the MCP specification defines it')),
    error: z.optional(
      z
        .object({ code: z.number().check(z.int()), message: z.string() })
        .check(z.meta({ description: 'A JSON-RPC error response' })),
    ),
  })
  .check(
    z.meta({ id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 message of the Model Context Protocol' }),
  );

/** The guide for language models: no key, not counted, like the other discovery documents. */
const guideOperation = routeGroup({ tags: ['Agents'], handlers: 'functions/http/agents', ...NO_KEY });

// The MCP exchange itself is not counted; every tool call counts as the API call it makes.
const mcpOperation = routeGroup({ tags: ['Agents'], handlers: 'functions/http/agents', ...ANY_KEY });

/** One section of the guide on its own: what the savings report's `methodology` link opens. */
export const guideQuery = z.object({
  section: z.optional(z.enum([SAVINGS_METHODOLOGY_ANCHOR])).check(
    z.meta({
      description:
        '`savings-methodology`: only the savings methodology (what the savings report’s `methodology` link opens), for a fleet to read and check by hand',
    }),
  ),
});

const guide = {
  summary: 'A concise markdown guide to this API for language models (llms.txt)',
  description:
    'Generated from the route table, the error registry and the contract’s rules: base URLs, auth, fleets, ids, units, pagination, idempotency, errors, limits, webhooks, the sandbox, the MCP endpoint, and a worked example per workflow. `?section=savings-methodology` answers the savings methodology alone.',
  request: { query: guideQuery },
  responses: [{ status: 200, description: 'The guide, as Markdown', contentType: 'text/markdown' }],
} as const;

const getLlmsTxt = /* @__PURE__ */ guideOperation({
  operationId: 'getLlmsTxt',
  route: 'GET /v1/llms.txt',
  ...guide,
});

export const agentOperations = {
  mcp: mcpOperation({
    operationId: 'mcp',
    route: 'POST /v1/mcp',
    summary: 'The MCP server (Streamable HTTP, stateless, JSON responses): the API as tools',
    description:
      'Model Context Protocol over Streamable HTTP: POST one JSON-RPC message with `Accept: application/json, text/event-stream`; the answer is JSON (no SSE, no session); a notification is answered 202 with no body. Any valid key; each tool call is the API call it names, with that route’s scope, limits and idempotency. GET and DELETE answer 405 with `Allow`. docs/mcp.md.',
    request: { body: jsonRpcMessage, publishedBody: publishedJsonRpcMessage },
    // A notification (e.g. notifications/initialized) is answered 202 with no body, as the transport specifies.
    responses: [{ status: 200, description: 'The JSON-RPC response (a result or a JSON-RPC error)' }],
  }),
  getLlmsTxt,
  getRootLlmsTxt: guideOperation({
    operationId: 'getRootLlmsTxt',
    route: 'GET /llms.txt',
    ...guide,
    // One module serves the guide at both paths.
    handler: getLlmsTxt.handler,
    summary: 'The same guide at the conventional root path',
  }),
} satisfies Record<string, RouteDefinition>;
