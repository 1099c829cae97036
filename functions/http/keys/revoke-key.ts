import { revokeKeyOperation } from '#shared/keys/api/operations.ts';
import { keyResource } from '#shared/keys/api/serializers.ts';
import { ownerActor, setKeyStatus } from '#shared/keys/usecases/api-keys.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(revokeKeyOperation, async ({ params, body }, context) => {
  const principal = actingPrincipal(context);
  const key = await setKeyStatus(
    keyDeps(),
    ownerActor(principal),
    principal.accountId,
    params.id,
    'revoked',
    body?.reason ?? null,
  );
  return ok(keyResource(key));
});
