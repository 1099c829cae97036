import { rotateKeyOperation } from '#shared/keys/api/operations.ts';
import { keyWithSecretResource } from '#shared/keys/api/serializers.ts';
import { ownerActor, rotateKey } from '#shared/keys/usecases/api-keys.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(rotateKeyOperation, async ({ params, body }, context) => {
  const principal = actingPrincipal(context);
  const { key, secret, previousSecretExpiresAt } = await rotateKey(
    keyDeps(),
    ownerActor(principal),
    principal.accountId,
    params.id,
    { expirePrevious: body?.expire_previous ?? false },
  );
  return ok(keyWithSecretResource(key, secret, previousSecretExpiresAt));
});
