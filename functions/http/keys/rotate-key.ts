import { rotateKeyRoute } from '../../../shared/api/routes/keys.ts';
import { keyWithSecretResource } from '../../../shared/api/serializers/keys.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { ownerActor, rotateKey } from '../../../shared/usecases/api-keys.ts';
import { keyDeps } from '../../../shared/wiring/access.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(rotateKeyRoute, async ({ params, body }, context) => {
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
