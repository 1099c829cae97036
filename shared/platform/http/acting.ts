import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { WebhookOwner } from '#shared/webhooks/domain/endpoint.ts';
import type { ApiContext } from './types.ts';

/** Partner routes only run for partner keys (the chain checked), so the id is always there. */
export function actingPartnerId(context: ApiContext): string {
  const partnerId = context.principal?.partnerId;
  if (!partnerId) throw new Error('Partner route reached without a partner key');
  return partnerId;
}

/** Fleet routes only run once the chain has chosen the acting fleet. */
export function actingFleetId(context: ApiContext): string {
  if (!context.fleetId) throw new Error('Fleet route reached without an acting fleet');
  return context.fleetId;
}

/** Keyed routes only run once the chain has authenticated a key. */
export function actingPrincipal(context: ApiContext): Principal {
  if (!context.principal) throw new Error('Keyed route reached without a principal');
  return context.principal;
}

/** `fleetOrPartner` routes act for the fleet, or for the partner itself without SVC-Fleet. */
export function actingWebhookOwner(context: ApiContext): WebhookOwner {
  if (context.fleetId) return { kind: 'fleet', fleetId: context.fleetId };
  const partnerId = context.principal?.partnerId;
  if (partnerId) return { kind: 'partner', partnerId };
  throw new Error('A webhook call reached the handler with neither a fleet nor a partner');
}
