import type { RouteDefinition } from '../../platform/http/route-definition.ts';
import { errorRegistrySchema } from '../schemas/errors.ts';
import { NO_KEY, routeGroup } from './route-group.ts';

/** Discovery documents: no key, not counted, served by the public role. */
const discoveryRoute = routeGroup({ tags: ['Discovery'], ...NO_KEY });

export const getOpenApiRoute = /* @__PURE__ */ discoveryRoute({
  operationId: 'getOpenApi',
  method: 'GET',
  path: '/v1/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  request: {},
  responses: [{ status: 200, description: 'OpenAPI 3.1 document; servers[0] is this stage.' }],
  handler: 'functions/http/discovery/get-openapi.ts',
});

export const listErrorsRoute = /* @__PURE__ */ discoveryRoute({
  operationId: 'listErrors',
  method: 'GET',
  path: '/v1/errors',
  summary: 'The error registry every problem `type` points into',
  request: {},
  responses: [
    {
      status: 200,
      description: 'Every error code with status, title and hint',
      schema: errorRegistrySchema,
    },
  ],
  handler: 'functions/http/discovery/list-errors.ts',
});

export const discoveryRoutes = {
  getOpenApi: getOpenApiRoute,
  listErrors: listErrorsRoute,
} satisfies Record<string, RouteDefinition>;
