/**
 * A vehicle by your own reference: `ext('TRUCK-042')` → `ext:TRUCK-042`, accepted wherever a path
 * or query takes a vehicle id. Pass it as a path parameter and the client URL-encodes it
 * (`/v1/vehicles/ext%3ATRUCK-042`); in a hand-built URL, wrap it in `encodeURIComponent`.
 */
export function ext(externalRef: string): `ext:${string}` {
  if (externalRef.trim() === '') throw new TypeError('ext() needs a non-empty external_ref');
  return `ext:${externalRef}`;
}
