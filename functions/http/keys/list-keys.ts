import { listKeysRoute } from '../../../shared/api/routes/keys.ts';
import { keyResource } from '../../../shared/api/serializers/keys.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listKeys } from '../../../shared/usecases/api-keys.ts';
import { keyDeps } from '../../../shared/wiring/access.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(listKeysRoute, async ({ query }, context) => {
  const page = await listKeys(keyDeps(), actingPrincipal(context).accountId, query.limit, query.cursor);
  return ok({ data: page.data.map(keyResource), next_cursor: page.next_cursor });
});
