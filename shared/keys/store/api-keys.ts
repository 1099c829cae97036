import type { CursorCodec } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { createApiKeyAuthentication } from './api-key-authentication.ts';
import type { ApiKeyStore } from './api-key-items.ts';
import { createApiKeyLifecycle } from './api-key-lifecycle.ts';
import { createApiKeyReads } from './api-key-reads.ts';
import { createApiKeyRotation } from './api-key-rotation.ts';

export { type ApiKeyStore, accountKeyKey, apiKeyKey, keyIdKey, type StoredKey } from './api-key-items.ts';

/**
 * API keys (the items: api-key-items.ts), one module per access pattern: authentication
 * (api-key-authentication.ts), the owner's and operator's reads (api-key-reads.ts), the key's
 * lifecycle (api-key-lifecycle.ts) and its rotation (api-key-rotation.ts).
 */
export function createApiKeyStore(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): ApiKeyStore {
  return {
    ...createApiKeyAuthentication(client, tableName),
    ...createApiKeyReads(client, tableName, cursors),
    ...createApiKeyLifecycle(client, tableName),
    ...createApiKeyRotation(client, tableName),
  };
}
