import type { Context } from 'aws-lambda';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Stage } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { HttpResult } from './types.ts';

/*
 * The Idempotency-Key header's rules and the runner's shape, without Powertools: the HTTP chain of
 * every route imports this, and only the idempotent routes' bundles carry the runner
 * (idempotency.ts, Powertools idempotency and its JMESPath engine, ~37 KB minified).
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 64;
/** Stripe's convention: tells the client it got the stored answer of an earlier request. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key keeps its answer; retries after a day are new requests. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** Spec section 4: required, a string of at most 64 characters. */
export function requireIdempotencyKey(value: string | undefined): string {
  if (value === undefined || value.trim() === '') {
    throw new ApiError(
      'idempotency_key_required',
      `Send an ${IDEMPOTENCY_KEY_HEADER} header with this request.`,
    );
  }
  if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ApiError(
      'idempotency_key_required',
      `The ${IDEMPOTENCY_KEY_HEADER} header is ${value.length} characters; at most ${IDEMPOTENCY_KEY_MAX_LENGTH} are allowed.`,
    );
  }
  return value;
}

/**
 * Where a key's answer is shared, as Stripe scopes them: the stage, the account (the partner, or
 * the company) and the acting fleet. Every key of one account shares it, so a client that rotates
 * its API key between two retries replays instead of creating twice; a partner acting for two
 * fleets, or the same header value on the sandbox and live stages, are separate requests.
 */
export function idempotencyScope(
  stage: Stage,
  principal: Pick<Principal, 'accountId'>,
  fleetId: string | null,
): string {
  return `${stage}|${principal.accountId}|${fleetId ?? '-'}`;
}

export interface IdempotentCall {
  /** idempotencyScope(): the same header value in another account, fleet or stage is another request. */
  scope: string;
  key: string;
  /** The validated body; compared after Powertools' deep sort, so member order does not matter. */
  body: unknown;
}

/** Runs `run` at most once per idempotent call; built per route by createIdempotentRunner (idempotency.ts). */
export type IdempotentRunner = (
  call: IdempotentCall,
  lambdaContext: Context,
  run: () => Promise<HttpResult>,
) => Promise<HttpResult>;

/** What the HTTP chain is given to make an idempotent route's runner (createIdempotentRunner). */
export type IdempotentRunnerFactory<Store = unknown> = (
  operationId: string,
  store: () => Store,
) => IdempotentRunner;
