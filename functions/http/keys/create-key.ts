import { createKeyRoute } from '../../../shared/api/routes/keys.ts';
import { keyWithSecretResource } from '../../../shared/api/serializers/keys.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { createKey, ownerActor } from '../../../shared/usecases/api-keys.ts';
import { keyDeps } from '../../../shared/wiring/access.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(createKeyRoute, async ({ body }, context) => {
  const principal = actingPrincipal(context);
  const { key, secret } = await createKey(keyDeps(), ownerActor(principal), principal.accountId, {
    ownerType: body.owner_type,
    name: body.name,
    scopes: body.scopes,
    mode: body.mode,
    expiresAt: body.expires_at ? new Date(body.expires_at).toISOString() : null,
  });
  return created(keyWithSecretResource(key, secret, null));
});
