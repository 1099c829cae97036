import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context } from 'aws-lambda';
import type { Principal } from '../../domain/api-keys.ts';
import type { Stage } from '../config.ts';
import { ApiError } from '../errors.ts';
import { canonicalJson } from './json.ts';
import type { HttpResult } from './types.ts';

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
 * Records live in the single table: `pk` = `IDEMPOTENCY#<operationId>` (one partition per
 * operation; these are expensive, low-rate POSTs), `sk` = Powertools' hash, expiring by the
 * table's TTL attribute.
 */
export function createIdempotencyStore(
  tableName: string,
  client: ConstructorParameters<typeof DynamoDBPersistenceLayer>[0]['awsSdkV3Client'],
  operationId: string,
) {
  return new DynamoDBPersistenceLayer({
    tableName,
    awsSdkV3Client: client,
    keyAttr: 'pk',
    sortKeyAttr: 'sk',
    staticPkValue: `IDEMPOTENCY#${operationId}`,
    expiryAttr: 'expires_at',
  });
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

/**
 * Wraps a route implementation so that the same key and body replay the stored result (status
 * and body), another body under the same key is 422 `idempotency_key_reuse`, and a request while
 * the first is in flight is 409 `idempotency_conflict`. A failed first attempt stores nothing, so
 * the client may retry it with the same key. The caller adds fresh RateLimit and Request-Id
 * headers to replays, and `Idempotent-Replayed: true`.
 */
export function createIdempotentRunner(operationId: string, store: () => BasePersistenceLayer) {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[scope, key]',
    payloadValidationJmesPath: 'body',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    throwOnNoIdempotencyKey: true,
  });
  // The stored form keeps the body as text: Powertools sorts object members when it saves a
  // record, and a replay must repeat the original bytes.
  type Stored = { status: number; headers: Record<string, string>; body: string | null };
  let wrapped: ((call: IdempotentCall, execute: () => Promise<Stored>) => Promise<Stored>) | undefined;

  return async (
    call: IdempotentCall,
    lambdaContext: Context,
    run: () => Promise<HttpResult>,
  ): Promise<HttpResult> => {
    wrapped ??= makeIdempotent(async (_call: IdempotentCall, execute: () => Promise<Stored>) => execute(), {
      persistenceStore: store(),
      config,
      keyPrefix: operationId,
    });
    // The in-progress lock expires with the invocation, so a crashed attempt does not block the key.
    config.registerLambdaContext(lambdaContext);
    let executed = false;
    let stored: Stored;
    try {
      stored = await wrapped(call, async () => {
        executed = true;
        const result = await run();
        return {
          status: result.status,
          headers: result.headers ?? {},
          body: result.body === undefined ? null : canonicalJson(result.body),
        };
      });
    } catch (error) {
      throw translateIdempotencyError(error);
    }
    return {
      status: stored.status,
      body: stored.body === null ? undefined : JSON.parse(stored.body),
      headers: executed ? stored.headers : { ...stored.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' },
    };
  };
}

function translateIdempotencyError(error: unknown): unknown {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'IdempotencyAlreadyInProgressError') {
    return new ApiError(
      'idempotency_conflict',
      'A request with this Idempotency-Key is still being processed.',
    );
  }
  if (name === 'IdempotencyValidationError') {
    return new ApiError(
      'idempotency_key_reuse',
      'This Idempotency-Key was already used with a different request body.',
    );
  }
  return error;
}
