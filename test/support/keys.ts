import type { ApiKeyRecord } from '#shared/keys/domain/api-key.ts';

type KeyFields = Omit<
  ApiKeyRecord,
  'accountId' | 'expiresAt' | 'revokedReason' | 'lastUsedAt' | 'createdBy'
> &
  Partial<ApiKeyRecord>;

/**
 * A key record for tests that write keys straight to the control plane: the account defaults to
 * the partner, or to an account named after the company's fleet, and the key never expires.
 */
export function testKeyRecord(fields: KeyFields): ApiKeyRecord {
  return {
    accountId: fields.partnerId ?? `cmp_of_${fields.fleetId ?? fields.keyId}`,
    expiresAt: null,
    revokedReason: null,
    lastUsedAt: null,
    createdBy: 'operator',
    ...fields,
  };
}
