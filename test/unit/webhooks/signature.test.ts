import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret, signPayload } from '#shared/webhooks/domain/signature.ts';
import {
  assertWebhookSignature,
  verifyWebhookSignature,
  WebhookSignatureError,
} from '../../../webhooks-receiver/index.ts';

/** Bytes 0..31 in base64url: a fixed, well-formed secret. */
const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
const PREVIOUS_SECRET = 'whsec_previousSecretStillValidFor24Hours000000000';
/** 2026-01-01T00:00:00Z. */
const T = 1767225600;
const BODY = '{"id":"evt_01JZ0000000000000000000000","type":"guidance.updated"}';

/*
 * Known vectors, computed outside this code base with OpenSSL (the key is the whole secret string):
 *   printf '%s' '1767225600.{"id":"evt_01JZ0000000000000000000000","type":"guidance.updated"}' \
 *     | openssl dgst -sha256 -hmac 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8'
 *   printf '%s' '1767225600.{"id":"evt_01JZ0000000000000000000000","type":"guidance.updated"}' \
 *     | openssl dgst -sha256 -hmac 'whsec_previousSecretStillValidFor24Hours000000000'
 *   printf '%s' '1767225600.{"note":"café ⛽"}' \
 *     | openssl dgst -sha256 -hmac 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8'
 */
const KNOWN_HEX = 'd38ff20a6f3086d2f1b8eac8de61e036d25b617666aaebdffc743b91c550fedf';
const KNOWN_HEX_PREVIOUS = '48bc9e06548ea6afccb7f4ad515d384c1ad32be7b71ecbff6ce90db61a801b2c';
const KNOWN_HEX_UTF8 = '8096a7cb6f552f30ac25b7944c4b21a0fb12798f1d48cf690f0587650c1b9a56';

describe('signPayload', () => {
  it('matches the OpenSSL vector: t=<unix>,v1=<lowercase hex> keyed with the whole secret string', () => {
    // Act
    const header = signPayload([SECRET], BODY, T);

    // Assess
    expect(header).toBe(`t=${T},v1=${KNOWN_HEX}`);
  });

  it('signs the body as UTF-8 bytes (non-ASCII text included)', () => {
    // Act
    const header = signPayload([SECRET], '{"note":"café ⛽"}', T);

    // Assess
    expect(header).toBe(`t=${T},v1=${KNOWN_HEX_UTF8}`);
  });

  it('carries one v1 per valid secret during rotation, in the order given', () => {
    // Act
    const header = signPayload([SECRET, PREVIOUS_SECRET], BODY, T);

    // Assess
    expect(header).toBe(`t=${T},v1=${KNOWN_HEX},v1=${KNOWN_HEX_PREVIOUS}`);
  });

  it('signs once when the same secret is passed twice', () => {
    // Act / Assess
    expect(signPayload([SECRET, SECRET], BODY, T)).toBe(`t=${T},v1=${KNOWN_HEX}`);
  });

  it('refuses to sign with no secret, an empty secret or a bad timestamp', () => {
    // Act / Assess
    expect(() => signPayload([], BODY, T)).toThrow(TypeError);
    expect(() => signPayload([''], BODY, T)).toThrow(TypeError);
    expect(() => signPayload([SECRET], BODY, -1)).toThrow(RangeError);
    expect(() => signPayload([SECRET], BODY, 1767225600.5)).toThrow(RangeError);
  });
});

describe('generateWebhookSecret', () => {
  it('makes whsec_ + 32 random bytes in base64url, different every time', () => {
    // Act
    const secrets = Array.from({ length: 20 }, () => generateWebhookSecret());

    // Assess
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64url')).toHaveLength(32);
      expect(isWebhookSecret(secret)).toBe(true);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('isWebhookSecret rejects other shapes', () => {
    // Act / Assess
    expect(isWebhookSecret(SECRET)).toBe(true);
    expect(isWebhookSecret('whsec_short')).toBe(false);
    expect(isWebhookSecret(`whsk_${SECRET.slice(6)}`)).toBe(false);
    expect(isWebhookSecret(`${SECRET}=`)).toBe(false);
  });
});

describe('verifyWebhookSignature', () => {
  const verify = (
    header: string | undefined,
    overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]> = {},
  ) => verifyWebhookSignature({ rawBody: BODY, header, secrets: SECRET, nowSeconds: T, ...overrides });

  describe('accepts', () => {
    it('the known vector', () => {
      // Act / Assess
      expect(verify(`t=${T},v1=${KNOWN_HEX}`)).toEqual({ ok: true, timestamp: T });
    });

    it('the raw body as bytes as well as text', () => {
      // Act / Assess
      expect(verify(`t=${T},v1=${KNOWN_HEX}`, { rawBody: Buffer.from(BODY, 'utf8') }).ok).toBe(true);
      expect(
        verify(`t=${T},v1=${KNOWN_HEX_UTF8}`, { rawBody: new TextEncoder().encode('{"note":"café ⛽"}') }).ok,
      ).toBe(true);
    });

    it('during rotation: either v1 value matching the receiver secret is enough', () => {
      // Prepare
      const header = signPayload([SECRET, PREVIOUS_SECRET], BODY, T);

      // Act / Assess
      expect(verify(header, { secrets: SECRET }).ok).toBe(true);
      expect(verify(header, { secrets: PREVIOUS_SECRET }).ok).toBe(true);
      expect(verify(header, { secrets: ['whsec_unrelated', PREVIOUS_SECRET] }).ok).toBe(true);
    });

    it('during rotation on the receiver side: a header signed with either of its secrets', () => {
      // Act / Assess
      expect(verify(`t=${T},v1=${KNOWN_HEX_PREVIOUS}`, { secrets: [SECRET, PREVIOUS_SECRET] }).ok).toBe(true);
      expect(verify(`t=${T},v1=${KNOWN_HEX}`, { secrets: [SECRET, PREVIOUS_SECRET] }).ok).toBe(true);
    });

    it('ignoring unknown schemes, in any order, with spaces around elements', () => {
      // Act / Assess
      expect(verify(`v0=deadbeef, t=${T} ,v2=abc,v1=${KNOWN_HEX}`).ok).toBe(true);
    });

    it('a header given as an array (repeated header lines)', () => {
      // Act / Assess
      expect(verify(undefined, { header: [`t=${T}`, `v1=${KNOWN_HEX}`] }).ok).toBe(true);
    });

    it('timestamps up to the tolerance in both directions, inclusive', () => {
      // Prepare
      const header = `t=${T},v1=${KNOWN_HEX}`;

      // Act / Assess
      expect(verify(header, { nowSeconds: T + 300 }).ok).toBe(true);
      expect(verify(header, { nowSeconds: T - 300 }).ok).toBe(true);
      expect(verify(header, { nowSeconds: T + 60, toleranceSeconds: 60 }).ok).toBe(true);
    });
  });

  describe('refuses', () => {
    it('a wrong secret', () => {
      // Act / Assess
      expect(verify(`t=${T},v1=${KNOWN_HEX}`, { secrets: generateWebhookSecret() })).toEqual({
        ok: false,
        reason: 'no_matching_signature',
      });
    });

    it('a body changed by one byte, or a timestamp changed', () => {
      // Act / Assess
      expect(verify(`t=${T},v1=${KNOWN_HEX}`, { rawBody: `${BODY} ` }).ok).toBe(false);
      expect(verify(`t=${T + 1},v1=${KNOWN_HEX}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
    });

    it('the secret decoded from base64url used as key (the key is the whole string)', () => {
      // Prepare: what an integrator would get by decoding the secret, Svix style.
      const decodedKey = Buffer.from(SECRET.slice('whsec_'.length), 'base64url').toString('latin1');

      // Act / Assess
      expect(verify(`t=${T},v1=${KNOWN_HEX}`, { secrets: decodedKey }).ok).toBe(false);
    });

    it('a stale timestamp, past or future, beyond the 5-minute default tolerance', () => {
      // Prepare: a correctly signed header, received too late or from a clock too far ahead.
      const header = `t=${T},v1=${KNOWN_HEX}`;
      const outside = { ok: false, reason: 'timestamp_outside_tolerance' };

      // Act / Assess
      expect(verify(header, { nowSeconds: T + 301 })).toEqual(outside);
      expect(verify(header, { nowSeconds: T - 301 })).toEqual(outside);
      expect(verify(header, { nowSeconds: T + 86_400 })).toEqual(outside);
      expect(verify(header, { nowSeconds: T + 61, toleranceSeconds: 60 })).toEqual(outside);
    });

    it('uses the system clock when nowSeconds is not given', () => {
      // Prepare
      const now = Math.floor(Date.now() / 1000);

      // Act / Assess
      expect(
        verifyWebhookSignature({ rawBody: BODY, header: signPayload([SECRET], BODY, now), secrets: SECRET })
          .ok,
      ).toBe(true);
      expect(
        verifyWebhookSignature({ rawBody: BODY, header: `t=${T},v1=${KNOWN_HEX}`, secrets: SECRET }),
      ).toEqual({
        ok: false,
        reason: 'timestamp_outside_tolerance',
      });
    });

    it.each([
      ['truncated by one digit', KNOWN_HEX.slice(0, -1)],
      ['truncated to half', KNOWN_HEX.slice(0, 32)],
      ['odd length with an extra digit (hex decoding would drop it)', `${KNOWN_HEX}f`],
      ['longer by a byte', `${KNOWN_HEX}00`],
      ['uppercase', KNOWN_HEX.toUpperCase()],
      ['not hex', 'z'.repeat(64)],
      ['empty', ''],
      ['multi-byte characters', 'é'.repeat(32)],
    ])('a v1 signature %s, without throwing', (_name, signature) => {
      // Act / Assess
      expect(verify(`t=${T},v1=${signature}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
    });

    it('a header with no v1 value at all (only unknown schemes)', () => {
      // Act / Assess
      expect(verify(`t=${T},v0=${KNOWN_HEX}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
    });

    it.each([
      ['undefined', undefined],
      ['null', null],
      ['empty', ''],
      ['blank', '   '],
      ['an empty array', []],
    ])('a missing header (%s)', (_name, header) => {
      // Act / Assess
      expect(verify(undefined, { header })).toEqual({ ok: false, reason: 'missing_header' });
    });

    it.each([
      ['no timestamp', `v1=${KNOWN_HEX}`],
      ['two timestamps', `t=${T},t=${T + 1},v1=${KNOWN_HEX}`],
      ['a non-numeric timestamp', `t=now,v1=${KNOWN_HEX}`],
      ['a negative timestamp', `t=-1,v1=${KNOWN_HEX}`],
      ['a fractional timestamp', `t=${T}.5,v1=${KNOWN_HEX}`],
      ['an absurdly long timestamp', `t=${'9'.repeat(40)},v1=${KNOWN_HEX}`],
      ['an empty timestamp', `t=,v1=${KNOWN_HEX}`],
      ['an element without =', `t=${T},${KNOWN_HEX}`],
      ['an element with an empty key', `t=${T},=${KNOWN_HEX}`],
      ['a trailing comma', `t=${T},v1=${KNOWN_HEX},`],
      ['a Stripe-style bearer string', 'Bearer abc'],
    ])('a malformed header: %s', (_name, header) => {
      // Act / Assess
      expect(verify(header)).toEqual({ ok: false, reason: 'malformed_header' });
    });
  });

  it('throws for configuration mistakes, not for anything a sender controls', () => {
    // Act / Assess
    expect(() => verify(`t=${T},v1=${KNOWN_HEX}`, { secrets: [] })).toThrow(TypeError);
    expect(() => verify(`t=${T},v1=${KNOWN_HEX}`, { secrets: '' })).toThrow(TypeError);
    expect(() => verify(`t=${T},v1=${KNOWN_HEX}`, { toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verify(`t=${T},v1=${KNOWN_HEX}`, { toleranceSeconds: Number.NaN })).toThrow(RangeError);
  });
});

describe('assertWebhookSignature', () => {
  it('returns the signed timestamp when the signature holds', () => {
    // Act / Assess
    expect(
      assertWebhookSignature({
        rawBody: BODY,
        header: `t=${T},v1=${KNOWN_HEX}`,
        secrets: SECRET,
        nowSeconds: T,
      }),
    ).toBe(T);
  });

  it('throws a WebhookSignatureError carrying the reason otherwise', () => {
    // Act
    const attempt = () =>
      assertWebhookSignature({
        rawBody: BODY,
        header: `t=${T},v1=${KNOWN_HEX}`,
        secrets: SECRET,
        nowSeconds: T + 301,
      });

    // Assess
    expect(attempt).toThrow(WebhookSignatureError);
    expect(attempt).toThrow(expect.objectContaining({ reason: 'timestamp_outside_tolerance' }));
  });
});

describe('signPayload and the standalone receiver agree', () => {
  it('on random secrets, bodies and timestamps, with one or two secrets', () => {
    // Prepare
    const bodies = ['', '{}', BODY, '{"note":"café ⛽ \\u0000"}', 'x'.repeat(100_000)];

    for (const [i, body] of bodies.entries()) {
      const current = generateWebhookSecret();
      const previous = generateWebhookSecret();
      const t = T + i * 7919;

      // Act
      const header = signPayload([current, previous], body, t);

      // Assess
      expect(verifyWebhookSignature({ rawBody: body, header, secrets: current, nowSeconds: t })).toEqual({
        ok: true,
        timestamp: t,
      });
      expect(
        verifyWebhookSignature({ rawBody: Buffer.from(body), header, secrets: previous, nowSeconds: t }).ok,
      ).toBe(true);
      expect(
        verifyWebhookSignature({ rawBody: body, header, secrets: generateWebhookSecret(), nowSeconds: t }).ok,
      ).toBe(false);
    }
  });
});
