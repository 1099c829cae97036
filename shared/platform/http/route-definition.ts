import type * as z from 'zod/mini';
import type { EndpointFamily, Scope } from '#shared/kernel/access.ts';
import type { ErrorCode } from '../errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route and which fleet it acts on:
 * - `anonymous`: no key at all (discovery documents).
 * - `key`: any valid key, no fleet (GET /v1/me, the event-type catalog).
 * - `partner`: partner-level calls (fleet provisioning); partner keys only, no SVC-Fleet header.
 * - `fleet`: acts on one fleet: a company key's own, or the fleet a partner key names in SVC-Fleet.
 * - `fleetOrPartner`: like `fleet`, except that a partner key without SVC-Fleet acts at partner
 *   level (webhook endpoints that receive the partner's `fleet.provisioned` events).
 * - `operator`: the operator API (`/admin/v1/…`, shared/admin/api/operations.ts): operator credentials,
 *   never an API key (shared/platform/http/operator.ts).
 */
export type RouteAccess = 'anonymous' | 'key' | 'partner' | 'fleet' | 'fleetOrPartner' | 'operator';

/**
 * The IAM role group a function runs under (lib/execution-roles.ts creates one role per group, so
 * functions that need the same access share it; lib/table-access.ts says what each may do and why).
 * Routes use `public` (no data at all), `api` (the fleet's data; reads the control plane, writes
 * nothing there but a key's last-used stamp) and `key-management` (the owner routes that write keys
 * and production-access requests in the control plane); `admin` runs the operator API (control plane
 * and the sandbox table); `webhook-dispatcher` is the deliveries queue's consumer (lib/webhooks.ts).
 */
export type RoleGroup = 'public' | 'api' | 'key-management' | 'admin' | 'webhook-dispatcher';

export interface RouteRequest {
  params?: z.core.$ZodObject;
  query?: z.core.$ZodObject;
  body?: z.core.$ZodType;
  /**
   * The body as openapi.json publishes it, when the handler parses `body` (an envelope) and checks
   * its parts on its own: a batch whose items are validated one by one, so one bad item never sinks
   * the rest. Defaults to `body`.
   */
  publishedBody?: z.core.$ZodType;
  /** `optional`: a body may be absent (e.g. webhook test); when present it must be JSON. */
  bodyRequired?: boolean;
  /** Larger bodies are refused whole with 413 `batch_too_large` before parsing (batch routes). */
  maxBodyBytes?: number;
}

export interface RouteResponse {
  status: number;
  description: string;
  schema?: z.core.$ZodType;
  /** A body that is not JSON (the llms.txt guide: `text/markdown`); published as a string. */
  contentType?: string;
}

export interface RouteDefinition {
  operationId: string;
  method: HttpMethod;
  /** API Gateway style path, e.g. `/v1/fleets/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  access: RouteAccess;
  /** Required scope; `null` when any valid key (or no key, for `anonymous`) may call. */
  scope: Scope | null;
  /** `null`: exempt from the monthly quota (GET /v1/me, discovery). */
  family: EndpointFamily | null;
  role: RoleGroup;
  /** Requires the Idempotency-Key header (docs/units-and-numbers.md#idempotency-key-scope). */
  idempotent: boolean;
  /**
   * A search sent as POST (its input is too large for a query): it changes nothing, so the MCP tool
   * is read-only and safe to repeat.
   */
  readOnly?: boolean;
  request: RouteRequest;
  /** Success responses; errors come from the registry and are documented once. */
  responses: readonly RouteResponse[];
  /** Route-specific error codes beyond those the chain implies (auth, validation, ids, limits). */
  errors?: readonly ErrorCode[];
  /** Handler module, relative to the repository root; it exports `handler`. */
  handler: string;
  /**
   * The function's timeout in seconds, for the rare route that works longer than the house default
   * (FUNCTION_DEFAULTS.httpTimeout); at most 29, as API Gateway gives up after 30.
   */
  timeoutSeconds?: number;
}

export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}
