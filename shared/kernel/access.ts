// What a key may do (scopes) and what its plan counts calls by (endpoint families): keys, plans,
// the usage counters and the route table all speak this vocabulary, so it belongs to none of them.

/**
 * Scopes (docs/api-guide.md#scopes-and-access-every-route), plus `trips:manage` and `keys:manage` (owner keys: create, rotate and
 * revoke the account's keys, ask for production access). `fleets:manage` is partner-only: a company
 * key can never hold it.
 */
export const SCOPES = [
  'fleets:manage',
  'vehicles:manage',
  'locations:write',
  'fuelings:write',
  'guidance:read',
  'guidance:manage',
  'usage:read',
  'webhooks:manage',
  'trips:manage',
  'keys:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

export const PARTNER_ONLY_SCOPES: readonly Scope[] = ['fleets:manage'];

export const COMPANY_SCOPES: readonly Scope[] = SCOPES.filter((s) => !PARTNER_ONLY_SCOPES.includes(s));

/** Endpoint families count toward the monthly quota (docs/limits.md#monthly-quota). */
export type EndpointFamily =
  | 'fleets'
  | 'vehicles'
  | 'locations'
  | 'guidance'
  | 'stations'
  | 'routes'
  | 'trips'
  | 'fuelings'
  | 'reports'
  | 'webhooks'
  | 'integration'
  | 'sandbox';
