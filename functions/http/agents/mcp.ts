import type { Context } from 'aws-lambda';
import { agentOperations } from '#shared/agents/api/operations.ts';
import { answerMcpRequest } from '#shared/agents/mcp/http-endpoint.ts';
import type { HttpEvent } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';
import { routeHandlers } from './route-handlers.ts';

/**
 * The chain is built per request because the tool calls need the request's own event (its key and
 * host) and Lambda context; building it is a few object allocations.
 */
export const handler = (event: HttpEvent, lambdaContext: Context) =>
  httpHandler(agentOperations.mcp, (request, context) =>
    answerMcpRequest(request, context, { caller: event, lambdaContext, routeHandlers }),
  )(event, lambdaContext);
