import type { Principal } from '#shared/keys/domain/api-key.ts';

/** A company key of `fleetId` that may ingest, read and manage guidance: the guidance drives' caller. */
export const guidancePrincipal = (fleetId: string): Principal => ({
  keyId: 'key_sim',
  keyName: 'sim',
  ownerType: 'company',
  accountId: `cmp_of_${fleetId}`,
  partnerId: null,
  ownFleetId: fleetId,
  mode: 'live',
  scopes: ['guidance:manage', 'guidance:read', 'locations:write'],
  planName: 'local-dev',
  keyCreatedAt: '2026-11-01T00:00:00.000000Z',
});

/** A company key of `fleetId` that manages trips: the dispatcher planning them, on `planName`. */
export const dispatcherPrincipal = (fleetId: string, planName = 'local-dev'): Principal => ({
  keyId: 'key_dispatch',
  keyName: 'dispatch',
  ownerType: 'company',
  accountId: `cmp_of_${fleetId}`,
  partnerId: null,
  ownFleetId: fleetId,
  mode: 'live',
  scopes: ['trips:manage'],
  planName,
  keyCreatedAt: '2026-11-01T00:00:00.000000Z',
});
