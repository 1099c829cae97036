import type { Account } from '#shared/accounts/domain/account.ts';
import type { ProductionAccessRequest } from '#shared/accounts/domain/production-access.ts';
import type { ApiKeyRecord } from '../domain/api-key.ts';

/** Never a secret: those appear only in the create and rotate responses. */
export function keyResource(key: ApiKeyRecord) {
  return {
    object: 'api_key' as const,
    id: key.keyId,
    name: key.name,
    owner_type: key.ownerType,
    mode: key.mode,
    scopes: key.scopes,
    status: key.status,
    revoked_reason: key.revokedReason,
    plan: key.planName,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
  };
}

export function keyWithSecretResource(
  key: ApiKeyRecord,
  secret: string,
  previousSecretExpiresAt: string | null,
) {
  return { ...keyResource(key), secret, previous_secret_expires_at: previousSecretExpiresAt };
}

export function productionAccessRequestResource(request: ProductionAccessRequest) {
  return {
    object: 'production_access_request' as const,
    id: request.id,
    status: request.status,
    use_case: request.useCase,
    expected_vehicles: request.expectedVehicles,
    contact_email: request.contactEmail,
    requested_at: request.requestedAt,
    decided_at: request.decidedAt,
    plan: request.planName,
    reason: request.reason,
  };
}

export function productionAccessResource(account: Account, request: ProductionAccessRequest | null) {
  const access = account.productionAccess;
  return {
    object: 'production_access' as const,
    status: access.status,
    plan: access.status === 'approved' ? (request?.planName ?? account.planName) : null,
    reason: access.reason,
    decided_at: access.decidedAt,
    live_fleet_id: access.status === 'approved' ? account.liveFleetId : null,
    request: request ? productionAccessRequestResource(request) : null,
  };
}
