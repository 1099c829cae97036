import type { HttpMethod, RouteDefinition } from '#shared/platform/http/route-definition.ts';

type Shared = 'tags' | 'access' | 'scope' | 'family' | 'role' | 'idempotent';

/**
 * What a group states once: who may call its routes and how they are counted (what its routes do
 * not all share, each entry states), and the folder of its handler files.
 */
export type RouteGroupDefaults = Partial<Pick<RouteDefinition, Shared>> & {
  /** Relative to the repository root, e.g. `functions/http/trips`. */
  handlers: string;
};

/**
 * A route as API Gateway keys it and the docs write it: `POST /v1/trips/{id}/start`. The group
 * splits it into the definition's `method` and `path`.
 */
export type RouteKey = `${HttpMethod} /${string}`;

/** What one entry of a group says: only what is its own (it may override a group default). */
export type GroupEntry<D> = Omit<RouteDefinition, keyof D | 'method' | 'path' | 'handler' | 'request'> &
  Pick<RouteDefinition, 'operationId'> &
  Partial<Pick<RouteDefinition, (keyof D & Shared) | 'request'>> & {
    route: RouteKey;
    /** Only for a route that shares another's handler module; otherwise found by convention. */
    handler?: string;
  };

/** A route that takes no parameters, query or body. */
type NoRequest = Record<never, never>;

type Merged<D, E> = Omit<Omit<D, 'handlers'>, keyof E> &
  Omit<E, 'route' | 'handler' | 'request'> &
  Pick<RouteDefinition, 'method' | 'path' | 'handler'> & {
    request: E extends { request: infer Q } ? Q : NoRequest;
  };

/** `startTrip` → `start-trip`: an operation's handler file is its operationId in kebab case. */
export const handlerFileName = (operationId: string): string =>
  operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * Routes of one resource share who may call them, how they are counted and their handler folder:
 * the group states that once, each entry only what is its own. An entry's handler is
 * `<handlers>/<operationId in kebab case>.ts` unless it names one; an entry without `request`
 * takes no parameters, query or body.
 */
export function routeGroup<const D extends RouteGroupDefaults>({ handlers, ...defaults }: D) {
  return <const E extends GroupEntry<D>>(entry: E): Merged<D, E> => {
    const { route, handler, request = {}, ...own } = entry;
    const [method, path] = splitRouteKey(route);
    return {
      ...defaults,
      ...own,
      method,
      path,
      request,
      handler: handler ?? `${handlers}/${handlerFileName(entry.operationId)}.ts`,
    } as unknown as Merged<D, E>;
  };
}

function splitRouteKey(route: RouteKey): [HttpMethod, string] {
  const space = route.indexOf(' ');
  return [route.slice(0, space) as HttpMethod, route.slice(space + 1)];
}

/** Any valid key, acting on no fleet and exempt from quotas: checked and rate-counted by the api role. */
export const ANY_KEY = { access: 'key', scope: null, family: null, role: 'api', idempotent: false } as const;

/** No key and not counted: nothing but the public role's static answers. */
export const NO_KEY = {
  access: 'anonymous',
  scope: null,
  family: null,
  role: 'public',
  idempotent: false,
} as const;
