import { revokeKeyRoute } from '../../../shared/api/routes/keys.ts';
import { keyResource } from '../../../shared/api/serializers/keys.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { ownerActor, setKeyStatus } from '../../../shared/usecases/api-keys.ts';
import { keyDeps } from '../../../shared/wiring/access.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(revokeKeyRoute, async ({ params, body }, context) => {
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
