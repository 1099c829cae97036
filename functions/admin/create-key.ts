import { createOperatorKeyRoute } from '../../shared/api/admin-routes.ts';
import { apiKeyWithSecretResource } from '../../shared/api/serializers/admin.ts';
import { created } from '../../shared/platform/http/types.ts';
import { createOperatorKey } from '../../shared/usecases/operator-keys.ts';
import { adminHandler, operatorAccountDeps } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(createOperatorKeyRoute, async ({ body }, { operator }) => {
  const { key, secret } = await createOperatorKey(operatorAccountDeps(), operator.id, {
    ownerType: body.owner_type,
    // The schema requires exactly the owner type's id.
    accountId: (body.owner_type === 'partner' ? body.partner_id : body.company_id) as string,
    planName: body.plan,
    scopes: body.scopes,
    name: body.name,
    mode: body.mode,
    expiresAt: body.expires_at ?? null,
  });
  return created(apiKeyWithSecretResource(key, secret));
});
