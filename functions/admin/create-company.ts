import { createCompanyOperation } from '#shared/admin/api/operations.ts';
import { accountResource, apiKeyWithSecretResource } from '#shared/admin/api/serializers.ts';
import { createCompany } from '#shared/admin/usecases/operator-accounts.ts';
import { adminHandler, operatorAccountDeps } from '#shared/admin/wiring/admin.ts';
import { created } from '#shared/platform/http/types.ts';

export const handler = adminHandler(createCompanyOperation, async ({ body }, { operator }) => {
  const { account, key } = await createCompany(operatorAccountDeps(), operator.id, {
    name: body.name,
    timezone: body.timezone,
    contactEmail: body.contact_email,
  });
  return created({ account: accountResource(account), key: apiKeyWithSecretResource(key.key, key.secret) });
});
