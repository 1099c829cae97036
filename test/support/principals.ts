import type { Principal } from '../../shared/domain/api-keys.ts';

/** A company key of `fleetId` that may ingest, read and manage guidance: the guidance drives' caller. */
export const guidancePrincipal = (fleetId: string): Principal => ({
  keyId: 'key_sim',
  keyName: 'sim',
  ownerType: 'company',
  partnerId: null,
  ownFleetId: fleetId,
  mode: 'live',
  scopes: ['guidance:manage', 'guidance:read', 'locations:write'],
  planName: 'local-dev',
});

/** A company key of `fleetId` that manages trips: the dispatcher planning them, on `planName`. */
export const dispatcherPrincipal = (fleetId: string, planName = 'local-dev'): Principal => ({
  keyId: 'key_dispatch',
  keyName: 'dispatch',
  ownerType: 'company',
  partnerId: null,
  ownFleetId: fleetId,
  mode: 'live',
  scopes: ['trips:manage'],
  planName,
});
