import { createKeyOperation } from '#shared/keys/api/operations.ts';
import { keyWithSecretResource } from '#shared/keys/api/serializers.ts';
import { createKey, ownerActor } from '#shared/keys/usecases/api-keys.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { created } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(createKeyOperation, async ({ body }, context) => {
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
