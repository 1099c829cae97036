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
