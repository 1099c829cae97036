import { defineRoute, type RouteDefinition } from '../../platform/http/route-definition.ts';

type GroupDefaults = Pick<RouteDefinition, 'tags' | 'access' | 'scope' | 'family' | 'role' | 'idempotent'>;

/**
 * Routes of one resource share who may call them and how they are counted: the group states that
 * once, each entry only what is its own.
 */
export function routeGroup<const D extends GroupDefaults>(defaults: D) {
  return <const R extends Omit<RouteDefinition, keyof GroupDefaults>>(route: R) =>
    defineRoute({ ...defaults, ...route } as const);
}
