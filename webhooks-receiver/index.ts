import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Receiver-side verification of Fleet Fuel Guidance webhooks (API v1, section 6 "Signature").
 *
 * Standalone on purpose: it imports nothing but `node:crypto`, so you can copy this one file into
 * your service. Verify against the RAW request body, the exact bytes received, before any JSON
 * parsing: re-serializing the envelope changes the bytes and the signature no longer matches.
 *
 * Header: `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, where each hex is the
 * lowercase HMAC-SHA256, keyed with the endpoint secret (the whole `whsec_…` string, as UTF-8), of
 * `<t>.<raw body>`. During a secret rotation there is one `v1` per valid secret; any match is
 * enough. Schemes other than `v1` are ignored so new ones can be added without breaking you.
 */

/** Lower-cased, as Node's `req.headers` presents it. */
export const SIGNATURE_HEADER = 'x-service-signature';
/** The 5 minutes the spec recommends; bounds how long a captured request can be replayed. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_outside_tolerance'
  | 'no_matching_signature';

export type WebhookVerificationResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: WebhookVerificationFailure };

export interface VerifyWebhookSignatureInput {
  /** The body exactly as received: the raw string or the raw bytes (a Buffer is a Uint8Array). */
  rawBody: string | Uint8Array;
  /** The `X-Service-Signature` header value; a missing header may be passed as is. */
  header: string | readonly string[] | null | undefined;
  /** Your endpoint secret, or several while you roll it over. */
  secrets: string | readonly string[];
  /** Maximum distance, either way, between the signed timestamp and now. Default 300. */
  toleranceSeconds?: number;
  /** Current unix time in seconds; defaults to the system clock. For tests. */
  nowSeconds?: number;
}

/** Thrown by `assertWebhookSignature`; `reason` is the same code `verifyWebhookSignature` returns. */
export class WebhookSignatureError extends Error {
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure) {
    super(`Webhook signature verification failed: ${reason}`);
    this.name = 'WebhookSignatureError';
    this.reason = reason;
  }
}

/**
 * Checks a delivery's signature header. Never throws for anything an attacker controls (header,
 * body); it throws only for a configuration mistake (no secret, a bad tolerance).
 *
 * The signature is checked before the timestamp, so `timestamp_outside_tolerance` means "signed by
 * us, but too old or too far in the future": a replay, or a clock that needs fixing.
 *
 * @example
 * const result = verifyWebhookSignature({
 *   rawBody, // the raw request body, e.g. express.raw() or a collected node:http stream
 *   header: req.headers['x-service-signature'],
 *   secrets: webhookSecret, // 'whsec_…', shown once when the endpoint was created
 * });
 * if (!result.ok) return res.writeHead(400).end(result.reason);
 * const event = JSON.parse(rawBody.toString('utf8'));
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): WebhookVerificationResult {
  const secrets = normalizeSecrets(input.secrets);
  const toleranceSeconds = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError(`toleranceSeconds must be a non-negative number, got ${toleranceSeconds}`);
  }

  const headerValue = typeof input.header === 'string' ? input.header : input.header?.join(',');
  if (headerValue === undefined || headerValue.trim() === '') return { ok: false, reason: 'missing_header' };

  const parsed = parseSignatureHeader(headerValue);
  if (parsed === null) return { ok: false, reason: 'malformed_header' };

  const signedPayload = signedPayloadBytes(parsed.timestamp, input.rawBody);
  // Every candidate is compared against every secret, with no early exit, so the time taken does
  // not depend on which secret or which position matched.
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(createHmac('sha256', secret).update(signedPayload).digest('hex'), 'utf8');
    for (const candidate of parsed.signatures) {
      if (constantTimeEqual(expected, candidate)) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: 'no_matching_signature' };

  const nowSeconds = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  }
  return { ok: true, timestamp: parsed.timestamp };
}

/**
 * `verifyWebhookSignature` for code that prefers exceptions: returns the signed timestamp, throws a
 * `WebhookSignatureError` carrying the reason otherwise.
 *
 * @example
 * try {
 *   assertWebhookSignature({ rawBody, header: req.headers['x-service-signature'], secrets: [current, previous] });
 * } catch (error) {
 *   if (error instanceof WebhookSignatureError) return res.writeHead(400).end(error.reason);
 *   throw error;
 * }
 */
export function assertWebhookSignature(input: VerifyWebhookSignatureInput): number {
  const result = verifyWebhookSignature(input);
  if (!result.ok) throw new WebhookSignatureError(result.reason);
  return result.timestamp;
}

interface ParsedSignatureHeader {
  timestamp: number;
  /** The `v1` values as raw bytes, unvalidated: a bad one simply fails to match. */
  signatures: Buffer[];
}

// Unix seconds fit in 12 digits until the year 33658; longer is garbage, not a timestamp.
const TIMESTAMP_PATTERN = /^\d{1,12}$/;

function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const element of header.split(',')) {
    const separator = element.indexOf('=');
    if (separator <= 0) return null;
    const scheme = element.slice(0, separator).trim();
    const value = element.slice(separator + 1).trim();
    if (scheme === 't') {
      // Two timestamps would leave it to chance which one the tolerance check sees.
      if (timestamp !== undefined || !TIMESTAMP_PATTERN.test(value)) return null;
      timestamp = Number(value);
    } else if (scheme === 'v1') {
      signatures.push(Buffer.from(value, 'utf8'));
    }
    // Any other scheme (v0, a future v2) is ignored.
  }
  if (timestamp === undefined) return null;
  return { timestamp, signatures };
}

function signedPayloadBytes(timestamp: number, rawBody: string | Uint8Array): Buffer {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]);
}

/**
 * Compares the hex TEXT, not decoded bytes: `Buffer.from(hex, 'hex')` silently drops an odd
 * trailing digit and stops at the first non-hex character, which would let a mangled value match.
 * `timingSafeEqual` throws on unequal lengths, so a truncated value is rejected before it; the
 * length of a signature is public anyway (always 64).
 */
function constantTimeEqual(expected: Buffer, candidate: Buffer): boolean {
  return expected.length === candidate.length && timingSafeEqual(expected, candidate);
}

function normalizeSecrets(secrets: string | readonly string[]): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (list.length === 0 || list.some((secret) => typeof secret !== 'string' || secret.length === 0)) {
    // Usually an unset environment variable; failing loudly beats rejecting every delivery quietly.
    throw new TypeError('verifyWebhookSignature needs at least one non-empty secret');
  }
  return list;
}
