import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Clock } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Stage } from '../config.ts';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResponse = APIGatewayProxyStructuredResultV2;

/** What a handler gets besides its parsed input: who is calling, on which fleet, when. */
export interface ApiContext {
  requestId: string;
  stage: Stage;
  /** The stage's public base URL, e.g. `https://abc.execute-api.us-east-1.amazonaws.com`. */
  baseUrl: string;
  /** Null only on anonymous routes. */
  principal: Principal | null;
  /** The acting fleet on `fleet` routes (company key's own, or the partner's SVC-Fleet). */
  fleetId: string | null;
  clock: Clock;
  /** Milliseconds left before the function is stopped (Lambda's `getRemainingTimeInMillis`). */
  remainingTimeMs: () => number;
}

export interface ApiInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | undefined>;
}

/** A handler's answer; the chain serializes `body` as canonical JSON. */
export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): HttpResult => ({ status: 200, body });
export const created = (body: unknown): HttpResult => ({ status: 201, body });
export const noContent = (): HttpResult => ({ status: 204 });
