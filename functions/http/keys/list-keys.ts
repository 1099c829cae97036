import { listKeysOperation } from '#shared/keys/api/operations.ts';
import { keyResource } from '#shared/keys/api/serializers.ts';
import { listKeys } from '#shared/keys/usecases/api-keys.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listKeysOperation, async ({ query }, context) => {
  const page = await listKeys(keyDeps(), actingPrincipal(context).accountId, query.limit, query.cursor);
  return ok({ data: page.data.map(keyResource), next_cursor: page.next_cursor });
});
