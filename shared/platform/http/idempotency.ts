import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context } from 'aws-lambda';
import { ApiError } from '../errors.ts';
import {
  IDEMPOTENCY_TTL_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  type IdempotentCall,
  type IdempotentRunner,
} from './idempotency-key.ts';
import { canonicalJson } from './json.ts';
import type { HttpResult } from './types.ts';

// The header rules live beside the chain (no Powertools); re-exported for the modules that import them from here.
export * from './idempotency-key.ts';

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
 * Wraps a route implementation so that the same key and body replay the stored result (status
 * and body), another body under the same key is 422 `idempotency_key_reuse`, and a request while
 * the first is in flight is 409 `idempotency_conflict`. A failed first attempt stores nothing, so
 * the client may retry it with the same key. The caller adds fresh RateLimit and Request-Id
 * headers to replays, and `Idempotent-Replayed: true`.
 */
export function createIdempotentRunner(
  operationId: string,
  store: () => BasePersistenceLayer,
): IdempotentRunner {
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
