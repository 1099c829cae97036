import { createOperatorKeyOperation } from '#shared/admin/api/operations.ts';
import { apiKeyWithSecretResource } from '#shared/admin/api/serializers.ts';
import { createOperatorKey } from '#shared/admin/usecases/operator-keys.ts';
import { adminHandler, operatorAccountDeps } from '#shared/admin/wiring/admin.ts';
import { created } from '#shared/platform/http/types.ts';

export const handler = adminHandler(createOperatorKeyOperation, async ({ body }, { operator }) => {
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
