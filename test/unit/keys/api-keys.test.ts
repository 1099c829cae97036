import { describe, expect, it } from 'vitest';
import {
  generateApiKey,
  hashApiKey,
  isRotatable,
  KEY_PREFIX,
  keyModeOf,
  secretRefusal,
} from '#shared/keys/domain/api-key.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_32 = 'abcdefghijklmnopqrstuvwxyz012345';

describe('generateApiKey', () => {
  it.each([
    ['live', /^svc_live_[0-9A-Za-z]{32}$/],
    ['test', /^svc_test_[0-9A-Za-z]{32}$/],
  ] as const)('makes a %s key: the spec prefix and 32 base62 characters', (mode, pattern) => {
    // Act
    const key = generateApiKey(mode);

    // Assess
    expect(key).toMatch(pattern);
    expect(keyModeOf(key)).toBe(mode);
  });

  it('never repeats a key and draws on the whole base62 alphabet', () => {
    // Act
    const keys = Array.from({ length: 300 }, () => generateApiKey('live'));

    // Assess: 9,600 draws miss one of 62 characters with probability ~1e-41.
    expect(new Set(keys).size).toBe(keys.length);
    const seen = new Set(keys.flatMap((key) => [...key.slice(KEY_PREFIX.live.length)]));
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('keyModeOf', () => {
  it('reads the mode from a well-formed key', () => {
    // Act / Assess
    expect(keyModeOf(`svc_live_${SECRET_32}`)).toBe('live');
    expect(keyModeOf(`svc_test_${SECRET_32}`)).toBe('test');
  });

  it.each([
    ['a 31-character secret', `svc_live_${SECRET_32.slice(1)}`],
    ['a 33-character secret', `svc_live_${SECRET_32}x`],
    ['an unknown mode', `svc_prod_${SECRET_32}`],
    ['an upper-case prefix', `SVC_LIVE_${SECRET_32}`],
    ['a character outside base62', `svc_live_${SECRET_32.slice(1)}-`],
    ['the Bearer scheme still attached', `Bearer svc_live_${SECRET_32}`],
    ['the bare prefix', 'svc_live_'],
    ['the empty string', ''],
  ])('returns null for %s', (_why, key) => {
    // Act / Assess
    expect(keyModeOf(key)).toBeNull();
  });
});

describe('hashApiKey', () => {
  it('is SHA-256 in lower-case hex (FIPS 180-2 test vectors)', () => {
    // Act / Assess
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes the key as UTF-8', () => {
    // Act / Assess: SHA-256 of the bytes c3 a9 (`printf 'é' | sha256sum`), not of latin-1 e9.
    expect(hashApiKey('\u00e9')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});

describe('secretRefusal', () => {
  const working = { status: 'active' as const, expiresAt: null, secretExpiresAt: null, revokedReason: null };
  const now = Date.parse('2026-11-23T12:00:00Z');

  it('lets a working secret through', () => {
    expect(secretRefusal(working, now)).toBeNull();
  });

  it('names the reason of a revocation in the detail', () => {
    const refusal = secretRefusal({ ...working, status: 'revoked', revokedReason: 'contract ended' }, now);
    expect(refusal).toEqual({ code: 'key_revoked', detail: 'This API key has been revoked: contract ended' });
  });

  it('refuses a key past its own expiry as revoked, naming when it expired', () => {
    const refusal = secretRefusal({ ...working, expiresAt: '2026-11-23T11:59:59Z' }, now);
    expect(refusal?.code).toBe('key_revoked');
    expect(refusal?.detail).toContain('2026-11-23T11:59:59Z');
  });

  it('keeps a rotated-out secret working until its grace ends, then points at the current secret', () => {
    const previous = { ...working, secretExpiresAt: '2026-11-24T12:00:00Z' };
    expect(secretRefusal(previous, now)).toBeNull();
    const refusal = secretRefusal(previous, Date.parse('2026-11-24T12:00:00Z'));
    expect(refusal?.code).toBe('key_revoked');
    expect(refusal?.detail).toMatch(/current secret/);
  });

  it('answers a suspended key with key_suspended', () => {
    expect(secretRefusal({ ...working, status: 'suspended' }, now)?.code).toBe('key_suspended');
  });
});

describe('isRotatable', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('rotates active and suspended keys, never revoked or expired ones', () => {
    expect(isRotatable({ status: 'active', expiresAt: null }, now)).toBe(true);
    expect(isRotatable({ status: 'suspended', expiresAt: null }, now)).toBe(true);
    expect(isRotatable({ status: 'revoked', expiresAt: null }, now)).toBe(false);
    expect(isRotatable({ status: 'active', expiresAt: '2026-11-23T12:00:00Z' }, now)).toBe(false);
  });
});
