import { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

const patterns = IDEMPOTENT_OPERATIONS.map(({ method, path }) => ({
  method,
  // `/v1/trips/{id}` → any one segment; anchored at the end, so a base URL with a path prefix works.
  path: new RegExp(`${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** Whether the API requires an `Idempotency-Key` on this call (from openapi.json, generated). */
export function requiresIdempotencyKey(method: string, pathname: string): boolean {
  const trimmed = pathname.replace(/\/+$/, '');
  return patterns.some((p) => p.method === method.toUpperCase() && p.path.test(trimmed));
}

/** A fresh key: 36 characters, within the API's 64. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
