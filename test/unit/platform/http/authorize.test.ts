import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '#shared/platform/errors.ts';
import { authorize, type HasGrant } from '#shared/platform/http/authorize.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  COMPANY_FLEET_ID,
  companyKeyRecord,
  GRANTED_FLEET_ID,
  OTHER_FLEET_ID,
  PARTNER_ID,
  partnerKeyRecord,
  principalOf,
} from '#test/unit/fixtures.ts';

type Access = Pick<RouteDefinition, 'access' | 'scope'>;

const fleetRoute: Access = { access: 'fleet', scope: 'vehicles:manage' };
const partnerRoute: Access = { access: 'partner', scope: 'fleets:manage' };
const keyRoute: Access = { access: 'key', scope: null };

const company = principalOf(companyKeyRecord());
const partner = principalOf(partnerKeyRecord());

function grants(...pairs: [string, string][]) {
  const set = new Set(pairs.map(([p, f]) => `${p}/${f}`));
  return vi.fn<HasGrant>(async (partnerId, fleetId) => set.has(`${partnerId}/${fleetId}`));
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected authorize to fail');
}

describe('authorize: scopes', () => {
  it('refuses a key without the route’s scope with 403 insufficient_scope naming it', async () => {
    // Prepare
    const readonly = principalOf(companyKeyRecord({ scopes: ['guidance:read'] }));

    // Act
    const error = await failure(authorize(fleetRoute, readonly, undefined, grants()));

    // Assess
    expect([error.code, error.status]).toEqual(['insufficient_scope', 403]);
    expect(error.extensions.required_scope).toBe('vehicles:manage');
    expect(error.detail).toContain('vehicles:manage');
  });

  it('checks the scope before the fleet header', async () => {
    // Prepare
    const noScope = principalOf(partnerKeyRecord({ scopes: ['guidance:read'] }));

    // Act: no SVC-Fleet header either, which alone would be fleet_header_required.
    const error = await failure(authorize(fleetRoute, noScope, undefined, grants()));

    // Assess
    expect(error.code).toBe('insufficient_scope');
  });

  it('lets any valid key through a route with no scope, acting on no fleet', async () => {
    // Prepare
    const hasGrant = grants();

    // Act
    const fleetId = await authorize(
      keyRoute,
      principalOf(companyKeyRecord({ scopes: [] })),
      undefined,
      hasGrant,
    );

    // Assess
    expect(fleetId).toBeNull();
    expect(hasGrant).not.toHaveBeenCalled();
  });
});

describe('authorize: partner routes', () => {
  it('lets a partner key with fleets:manage through, acting on no fleet', async () => {
    // Act
    const fleetId = await authorize(partnerRoute, partner, undefined, grants());

    // Assess
    expect(fleetId).toBeNull();
  });

  it('refuses a company key (which cannot hold fleets:manage) with insufficient_scope', async () => {
    // Act
    const error = await failure(authorize(partnerRoute, company, undefined, grants()));

    // Assess
    expect([error.code, error.status]).toEqual(['insufficient_scope', 403]);
    expect(error.extensions.required_scope).toBe('fleets:manage');
  });

  it('refuses a company key even if its record wrongly carries fleets:manage', async () => {
    // Prepare
    const misissued = principalOf(companyKeyRecord({ scopes: ['fleets:manage'] }));

    // Act
    const error = await failure(authorize(partnerRoute, misissued, undefined, grants()));

    // Assess
    expect(error.code).toBe('insufficient_scope');
    expect(error.extensions.required_scope).toBe('fleets:manage');
  });
});

describe('authorize: fleet routes with a partner key', () => {
  it('acts on the fleet the SVC-Fleet header names when the partner holds a grant', async () => {
    // Prepare
    const hasGrant = grants([PARTNER_ID, GRANTED_FLEET_ID]);

    // Act
    const fleetId = await authorize(fleetRoute, partner, GRANTED_FLEET_ID, hasGrant);

    // Assess
    expect(fleetId).toBe(GRANTED_FLEET_ID);
    expect(hasGrant).toHaveBeenCalledWith(PARTNER_ID, GRANTED_FLEET_ID);
  });

  it('without the header → 400 fleet_header_required', async () => {
    // Act
    const error = await failure(
      authorize(fleetRoute, partner, undefined, grants([PARTNER_ID, GRANTED_FLEET_ID])),
    );

    // Assess
    expect([error.code, error.status]).toEqual(['fleet_header_required', 400]);
  });

  it('naming a fleet not granted to it → 403 fleet_scope_mismatch', async () => {
    // Act
    const error = await failure(
      authorize(fleetRoute, partner, OTHER_FLEET_ID, grants([PARTNER_ID, GRANTED_FLEET_ID])),
    );

    // Assess
    expect([error.code, error.status]).toEqual(['fleet_scope_mismatch', 403]);
  });

  it.each([
    ['another kind of id', 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4'],
    ['a lower-case id', GRANTED_FLEET_ID.toLowerCase()],
    ['a name', 'Acme Freight'],
  ])('with a malformed header (%s) → 400 invalid_public_id, no grant lookup', async (_why, header) => {
    // Prepare
    const hasGrant = grants([PARTNER_ID, GRANTED_FLEET_ID]);

    // Act
    const error = await failure(authorize(fleetRoute, partner, header, hasGrant));

    // Assess
    expect([error.code, error.status]).toEqual(['invalid_public_id', 400]);
    expect(hasGrant).not.toHaveBeenCalled();
  });
});

describe('authorize: fleet routes with a company key', () => {
  it('acts on its own fleet without a header, no grant lookup', async () => {
    // Prepare
    const hasGrant = grants();

    // Act
    const fleetId = await authorize(fleetRoute, company, undefined, hasGrant);

    // Assess
    expect(fleetId).toBe(COMPANY_FLEET_ID);
    expect(hasGrant).not.toHaveBeenCalled();
  });

  it('tolerates a header that names its own fleet', async () => {
    // Act
    const fleetId = await authorize(fleetRoute, company, COMPANY_FLEET_ID, grants());

    // Assess
    expect(fleetId).toBe(COMPANY_FLEET_ID);
  });

  it('naming another fleet in the header → 403 fleet_scope_mismatch, never that fleet', async () => {
    // Act
    const error = await failure(authorize(fleetRoute, company, OTHER_FLEET_ID, grants()));

    // Assess
    expect([error.code, error.status]).toEqual(['fleet_scope_mismatch', 403]);
  });

  it('with a malformed header → 400 invalid_public_id', async () => {
    // Act
    const error = await failure(authorize(fleetRoute, company, 'flt_nope', grants()));

    // Assess
    expect(error.code).toBe('invalid_public_id');
  });
});
