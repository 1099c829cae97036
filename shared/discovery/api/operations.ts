import { errorRegistrySchema } from '#shared/api/error-schemas.ts';
import { NO_KEY, routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';

/** Discovery documents: no key, not counted, served by the public role. */
const discoveryOperation = routeGroup({
  tags: ['Discovery'],
  handlers: 'functions/http/discovery',
  ...NO_KEY,
});

export const getOpenApiOperation = /* @__PURE__ */ discoveryOperation({
  operationId: 'getOpenApi',
  route: 'GET /v1/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  responses: [{ status: 200, description: 'OpenAPI 3.1 document; servers[0] is this stage.' }],
});

export const listErrorsOperation = /* @__PURE__ */ discoveryOperation({
  operationId: 'listErrors',
  route: 'GET /v1/errors',
  summary: 'The error registry every problem `type` points into',
  responses: [
    {
      status: 200,
      description: 'Every error code with status, title and hint',
      schema: errorRegistrySchema,
    },
  ],
});

export const discoveryOperations = {
  getOpenApi: getOpenApiOperation,
  listErrors: listErrorsOperation,
} satisfies Record<string, RouteDefinition>;
