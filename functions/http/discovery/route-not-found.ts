import { ApiError } from '../../../shared/platform/errors.ts';
import { createFallbackHandler } from '../../../shared/platform/http/handler.ts';

/**
 * API Gateway's `$default` route: every method and path the route table does not know.
 * No key is needed to learn that a route does not exist.
 */
export const handler = createFallbackHandler(async (event) => {
  const route = `${event.requestContext.http.method} ${event.rawPath}`;
  throw new ApiError('resource_not_found', `There is no route ${route}.`, {
    hint: `${route} is not part of this API; GET /v1/openapi.json lists every route`,
  });
});
