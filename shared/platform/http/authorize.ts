import { isPublicId } from '#shared/kernel/ids.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { authUnavailable } from '../domain-errors.ts';
import { ApiError } from '../errors.ts';
import { FLEET_HEADER } from '../fleet-header.ts';
import { logger } from '../observability.ts';
import type { RouteDefinition } from './route-definition.ts';

export { FLEET_HEADER };

export type HasGrant = (partnerId: string, fleetId: string) => Promise<boolean>;

/**
 * Scope first, then fleet selection (the order of checks, docs/limits.md). Returns the acting fleet
 * for `fleet` routes, null otherwise.
 */
export async function authorize(
  route: Pick<RouteDefinition, 'access' | 'scope'>,
  principal: Principal,
  fleetHeader: string | undefined,
  hasGrant: HasGrant,
): Promise<string | null> {
  if (route.scope && !principal.scopes.includes(route.scope)) {
    throw new ApiError('insufficient_scope', `This operation requires the scope ${route.scope}.`, {
      extensions: { required_scope: route.scope },
    });
  }

  if (route.access === 'partner') {
    // Only partner keys can hold fleets:manage, so a company key already failed the scope check;
    // this guards routes a future scope change might open up.
    if (principal.ownerType !== 'partner') {
      throw new ApiError('insufficient_scope', `This operation requires a partner key with ${route.scope}.`, {
        extensions: route.scope ? { required_scope: route.scope } : {},
      });
    }
    return null;
  }
  if (route.access !== 'fleet' && route.access !== 'fleetOrPartner') return null;

  if (fleetHeader !== undefined && !isPublicId('fleet', fleetHeader)) {
    throw new ApiError('invalid_public_id', `The ${FLEET_HEADER} header must be a flt_ id.`);
  }
  if (principal.ownerType === 'company') {
    // Company keys act on their own fleet and need no header; a header naming another fleet is a
    // mistake worth reporting rather than silently ignoring.
    if (fleetHeader !== undefined && fleetHeader !== principal.ownFleetId) {
      throw new ApiError('fleet_scope_mismatch', `This key acts on its own fleet, not ${fleetHeader}.`, {
        hint: `company keys do not send the ${FLEET_HEADER} header`,
      });
    }
    return principal.ownFleetId;
  }
  if (fleetHeader === undefined) {
    if (route.access === 'fleetOrPartner') return null;
    throw new ApiError(
      'fleet_header_required',
      `Send the ${FLEET_HEADER} header naming the fleet to act on.`,
    );
  }
  if (!principal.partnerId || !(await grantLookup(hasGrant, principal.partnerId, fleetHeader))) {
    throw new ApiError('fleet_scope_mismatch', `The key is not authorized for fleet ${fleetHeader}.`);
  }
  return fleetHeader;
}

/** The grant store is part of the auth backend: its failure is 503 auth_unavailable, not a 500. */
async function grantLookup(hasGrant: HasGrant, partnerId: string, fleetId: string): Promise<boolean> {
  try {
    return await hasGrant(partnerId, fleetId);
  } catch (error) {
    logger.error('Grant store unavailable', { error });
    throw authUnavailable('The fleet grant could not be checked right now.');
  }
}
