import { defineRoute, type RouteDefinition } from '#shared/platform/http/route-definition.ts';

type GroupDefaults = Pick<RouteDefinition, 'tags' | 'access' | 'scope' | 'family' | 'role' | 'idempotent'>;

/**
 * Routes of one resource share who may call them and how they are counted: the group states that
 * once, each entry only what is its own.
 */
export function routeGroup<const D extends GroupDefaults>(defaults: D) {
  return <const R extends Omit<RouteDefinition, keyof GroupDefaults>>(route: R) =>
    defineRoute({ ...defaults, ...route } as const);
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
