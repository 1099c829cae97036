import type { EndpointFamily } from '#shared/kernel/access.ts';
import type { EnumerationGuardSettings } from '#shared/stations/domain/enumeration-guard.ts';

/** A commercial plan. Plans are data in the table (PLAN# items), never constants in handlers. */
export interface Plan {
  name: string;
  rateLimitPerMin: number;
  /** Requests per calendar month (UTC) by endpoint family; a family not listed is unlimited. */
  monthlyQuota: Partial<Record<EndpointFamily, number>>;
  /** Stations returned per calendar month (GET /v1/stations, along-route, guidance). */
  stationQueryBudget: number;
  /** Most stations one price query may return (GET /v1/stations `limit`, docs/limits.md). */
  priceQueryCap: number;
  /** Thresholds of the enumeration guard; unset fields take `DEFAULT_ENUMERATION_GUARD`. */
  enumerationGuard?: Partial<EnumerationGuardSettings>;
}

/** `2026-11` for usage counters: quotas reset on the first of the month, UTC. */
export function usagePeriod(nowMs: number): { id: string; start: Date; end: Date } {
  const now = new Date(nowMs);
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { id: start.toISOString().slice(0, 7), start, end };
}
