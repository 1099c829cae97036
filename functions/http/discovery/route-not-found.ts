import { routeList } from '#shared/api/route-table.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { allowedMethods } from '#shared/platform/http/allowed-methods.ts';
import { createFallbackHandler } from '#shared/platform/http/chain.ts';

/**
 * API Gateway's `$default` route: every method and path the route table does not know.
 * No key is needed to learn that a route does not exist. A path the table knows under other
 * methods answers 405 `method_not_allowed` with `Allow`; OPTIONS on it answers 204 with `Allow`
 * (there is no CORS: the API is called server to server).
 */
export const handler = createFallbackHandler(async (event) => {
  const method = event.requestContext.http.method.toUpperCase();
  const route = `${method} ${event.rawPath}`;
  const allowed = allowedMethods(routeList, event.rawPath);
  if (allowed.length === 0) {
    throw new ApiError('resource_not_found', `There is no route ${route}.`, {
      hint: `${route} is not part of this API; GET /v1/openapi.json lists every route`,
    });
  }
  const allow = [...allowed, 'OPTIONS'].join(', ');
  if (method === 'OPTIONS') return { statusCode: 204, headers: { Allow: allow }, body: '' };
  throw new ApiError(
    'method_not_allowed',
    `${event.rawPath} does not accept ${method}; it accepts ${allowed.join(', ')}.`,
    {
      hint: `send ${allowed.join(' or ')} ${event.rawPath}; GET /v1/openapi.json lists every route`,
      headers: { Allow: allow },
      extensions: { allowed_methods: allowed },
    },
  );
});
