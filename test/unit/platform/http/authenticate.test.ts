import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiKeyRecord, hashApiKey } from '#shared/keys/domain/api-key.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { authenticate, type FindKey } from '#shared/platform/http/authenticate.ts';
import { logger } from '#shared/platform/observability.ts';
import { companyKeyRecord, LIVE_KEY, partnerKeyRecord, TEST_KEY } from '#test/unit/fixtures.ts';

function keyStore(records: Record<string, ApiKeyRecord>) {
  const byHash = new Map(
    Object.entries(records).map(([key, record]) => [hashApiKey(key), { ...record, secretExpiresAt: null }]),
  );
  return vi.fn<FindKey>(async (hash) => byHash.get(hash) ?? null);
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected authenticate to fail');
}

beforeEach(() => {
  vi.spyOn(logger, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('authenticate: a recognized, active key', () => {
  it('becomes the principal the handlers see', async () => {
    // Prepare
    const record = partnerKeyRecord();
    const findKey = keyStore({ [LIVE_KEY]: record });

    // Act
    const principal = await authenticate(`Bearer ${LIVE_KEY}`, 'prod', findKey);

    // Assess
    expect(principal).toEqual({
      keyId: record.keyId,
      keyName: record.name,
      ownerType: 'partner',
      accountId: record.accountId,
      partnerId: record.partnerId,
      ownFleetId: null,
      mode: 'live',
      scopes: record.scopes,
      planName: 'starter',
      keyCreatedAt: record.createdAt,
    });
  });

  it('is looked up by its SHA-256 hash, never by the plaintext', async () => {
    // Prepare
    const findKey = keyStore({ [LIVE_KEY]: companyKeyRecord() });

    // Act
    await authenticate(`Bearer ${LIVE_KEY}`, 'prod', findKey);

    // Assess
    expect(findKey).toHaveBeenCalledTimes(1);
    const [hash] = findKey.mock.calls[0] as [string];
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(LIVE_KEY.slice(9));
  });

  it('accepts the scheme in any case (RFC 9110 auth schemes are case-insensitive)', async () => {
    // Prepare
    const findKey = keyStore({ [LIVE_KEY]: companyKeyRecord() });

    // Act
    const principal = await authenticate(`bearer ${LIVE_KEY}`, 'prod', findKey);

    // Assess
    expect(principal.keyId).toBe(companyKeyRecord().keyId);
  });

  it('lets a test key through on the sandbox stage', async () => {
    // Prepare
    const findKey = keyStore({ [TEST_KEY]: companyKeyRecord({ mode: 'test' }) });

    // Act
    const principal = await authenticate(`Bearer ${TEST_KEY}`, 'sandbox', findKey);

    // Assess
    expect(principal.mode).toBe('test');
  });
});

describe('authenticate: the authentication failures', () => {
  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', `Basic ${Buffer.from(`u:${LIVE_KEY}`).toString('base64')}`],
    ['the key without a scheme', LIVE_KEY],
    ['the scheme without a key', 'Bearer'],
    ['the scheme and blanks only', 'Bearer    '],
  ])('%s → 401 missing_api_key, without a lookup', async (_why, authorization) => {
    // Prepare
    const findKey = keyStore({ [LIVE_KEY]: companyKeyRecord() });

    // Act
    const error = await failure(authenticate(authorization, 'prod', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['missing_api_key', 401]);
    expect(findKey).not.toHaveBeenCalled();
  });

  it('an unknown key → 401 invalid_api_key', async () => {
    // Prepare
    const findKey = keyStore({ [LIVE_KEY]: companyKeyRecord() });

    // Act
    const error = await failure(authenticate(`Bearer svc_live_${'Z'.repeat(32)}`, 'prod', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['invalid_api_key', 401]);
    expect(findKey).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['too short', 'svc_live_abc'],
    ['an unknown prefix', `sk_live_${'a'.repeat(32)}`],
    ['a character outside base62', `svc_live_${'a'.repeat(31)}!`],
  ])('a malformed key (%s) → 401 invalid_api_key, without a lookup', async (_why, key) => {
    // Prepare
    const findKey = keyStore({});

    // Act
    const error = await failure(authenticate(`Bearer ${key}`, 'prod', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['invalid_api_key', 401]);
    expect(findKey).not.toHaveBeenCalled();
  });

  it('a revoked key → 401 key_revoked', async () => {
    // Prepare
    const findKey = keyStore({ [LIVE_KEY]: companyKeyRecord({ status: 'revoked' }) });

    // Act
    const error = await failure(authenticate(`Bearer ${LIVE_KEY}`, 'prod', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['key_revoked', 401]);
  });

  it('a suspended key → 403 key_suspended', async () => {
    // Prepare
    const findKey = keyStore({ [LIVE_KEY]: companyKeyRecord({ status: 'suspended' }) });

    // Act
    const error = await failure(authenticate(`Bearer ${LIVE_KEY}`, 'prod', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['key_suspended', 403]);
  });

  it('a svc_test_ key on production → 403 sandbox_key_on_production, before any lookup', async () => {
    // Prepare
    const findKey = keyStore({ [TEST_KEY]: companyKeyRecord({ mode: 'test' }) });

    // Act
    const error = await failure(authenticate(`Bearer ${TEST_KEY}`, 'prod', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['sandbox_key_on_production', 403]);
    expect(findKey).not.toHaveBeenCalled();
  });

  it('a svc_live_ key on the sandbox → 401 invalid_api_key, with a hint naming the right base URL', async () => {
    // Prepare
    const findKey = keyStore({ [LIVE_KEY]: companyKeyRecord() });

    // Act
    const error = await failure(authenticate(`Bearer ${LIVE_KEY}`, 'sandbox', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['invalid_api_key', 401]);
    expect(error.hint).toMatch(/svc_test_/);
    expect(findKey).not.toHaveBeenCalled();
  });

  it('a key store that throws → 503 auth_unavailable, not a 500 or a 401', async () => {
    // Prepare
    const findKey = vi.fn<FindKey>(async () => {
      throw new Error('ProvisionedThroughputExceededException');
    });

    // Act
    const error = await failure(authenticate(`Bearer ${LIVE_KEY}`, 'prod', findKey));

    // Assess
    expect([error.code, error.status]).toEqual(['auth_unavailable', 503]);
    expect(error.detail).not.toMatch(/ProvisionedThroughput/);
  });
});
