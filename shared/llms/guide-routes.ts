import { routeList } from '../api/routes.ts';
import type { RouteDefinition } from '../platform/http/route-definition.ts';

/** What the guide says of an operation: no schemas. */
export type GuideRoute = Pick<
  RouteDefinition,
  'method' | 'path' | 'summary' | 'tags' | 'access' | 'scope' | 'idempotent'
>;

/**
 * The operations the guide lists, in route-table order. Run from source (tests, the local stack)
 * they come from the route table. The route table brings every route's schemas (~90 KB of the
 * guide's function, for a list of lines), so the Lambda bundle replaces this module with one
 * reading `guide-routes.json` beside it, which the build writes from this very function
 * (scripts/bundle-functions.ts, `lazyDataFiles`).
 */
export function readGuideRoutes(): GuideRoute[] {
  return routeList.map(({ method, path, summary, tags, access, scope, idempotent }) => ({
    method,
    path,
    summary,
    tags,
    access,
    scope,
    idempotent,
  }));
}
