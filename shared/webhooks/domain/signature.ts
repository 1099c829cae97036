import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signing, the sender's side (docs/api-guide.md#events-and-webhooks). The receiver's side lives in
 * `webhooks-receiver/index.ts`, which repeats the HMAC on purpose: it is a standalone file that
 * integrators copy, so it cannot import this one. A unit test proves the two agree.
 */

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** 32 random bytes: 256 bits, as strong as the HMAC-SHA256 output it keys; 43 base64url characters. */
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

/**
 * A new endpoint secret: `whsec_` + 32 random bytes in base64url (no padding).
 *
 * @example
 * generateWebhookSecret(); // 'whsec_' + 43 base64url characters, e.g. 'whsec_3q2-7w…'
 */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * True for a string shaped like a secret `generateWebhookSecret` makes.
 *
 * @example
 * isWebhookSecret(generateWebhookSecret()); // true
 * isWebhookSecret('whsec_short'); // false
 */
export function isWebhookSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/**
 * The `X-Service-Signature` header value for one delivery: `t=<unix>,v1=<hex>[,v1=<hex>…]`, one `v1`
 * per secret in the order given (newest first by convention), each the lowercase hex of
 * HMAC-SHA256 over `<t>.<raw body>`.
 *
 * The HMAC key is the WHOLE secret string, `whsec_` prefix included, as UTF-8, not the decoded
 * base64url bytes: integrators then paste the secret into any HMAC tool or library as-is, with
 * no decoding step to get wrong (the same choice as Stripe's `whsec_` secrets).
 *
 * `rawBody` must be exactly the text that is sent (it is signed as UTF-8); never re-serialize the
 * envelope between signing and sending.
 *
 * @example
 * signPayload(['whsec_new…', 'whsec_old…'], '{"id":"evt_…"}', 1767225600);
 * // 't=1767225600,v1=5f2b…,v1=9c41…'
 */
export function signPayload(secrets: readonly string[], rawBody: string, timestampSeconds: number): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`timestampSeconds must be a non-negative integer, got ${timestampSeconds}`);
  }
  // A delivery with no signature would look valid to nobody; that is a bug upstream, not a send.
  const keys = [...new Set(secrets)];
  if (keys.length === 0 || keys.some((secret) => secret.length === 0)) {
    throw new TypeError('signPayload needs at least one non-empty secret');
  }
  const signatures = keys.map((secret) => `v1=${hmacHex(secret, timestampSeconds, rawBody)}`);
  return [`t=${timestampSeconds}`, ...signatures].join(',');
}

function hmacHex(secret: string, timestampSeconds: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`, 'utf8').digest('hex');
}
