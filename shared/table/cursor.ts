import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '#shared/platform/errors.ts';

/** Cursors outlive a page view, not a deploy cycle: a week is ample and bounds replays. */
export const CURSOR_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A filtered page may need a few reads to fill; past this many it answers what it has, with a cursor. */
export const MAX_LIST_READS = 10;

/**
 * Opaque, tamper-evident pagination cursors: the DynamoDB LastEvaluatedKey, the list it belongs to
 * (`scope`, e.g. `vehicles:flt_…:active`) and an expiry, signed with HMAC-SHA256. A cursor from
 * another list, another fleet, an edited one or an expired one is `invalid_cursor`, never a 500 and
 * never a read outside the caller's keys.
 */
export interface CursorCodec {
  encode(scope: string, lastKey: Record<string, unknown>): string;
  decode(scope: string, cursor: string): Record<string, unknown>;
}

export function createCursorCodec(signingKey: string, now: () => number = Date.now): CursorCodec {
  const sign = (payload: string) => createHmac('sha256', signingKey).update(payload).digest().subarray(0, 16);

  return {
    encode(scope, lastKey) {
      const payload = Buffer.from(
        JSON.stringify({ s: scope, k: lastKey, e: now() + CURSOR_TTL_MS }),
      ).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(scope, cursor) {
      const invalid = (why: string) => new ApiError('invalid_cursor', `The cursor ${why}.`);
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) throw invalid('is malformed');
      const expected = sign(payload);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('was altered');
      let body: { s?: unknown; k?: unknown; e?: unknown };
      try {
        body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw invalid('is malformed');
      }
      if (body.s !== scope) throw invalid('belongs to another list or filter');
      if (typeof body.e !== 'number' || body.e < now()) throw invalid('has expired');
      if (typeof body.k !== 'object' || body.k === null) throw invalid('is malformed');
      return body.k as Record<string, unknown>;
    },
  };
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
