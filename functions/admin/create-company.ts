import { createCompanyRoute } from '../../shared/api/admin-routes.ts';
import { accountResource, apiKeyWithSecretResource } from '../../shared/api/serializers/admin.ts';
import { created } from '../../shared/platform/http/types.ts';
import { createCompany } from '../../shared/usecases/operator-accounts.ts';
import { adminHandler, operatorAccountDeps } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(createCompanyRoute, async ({ body }, { operator }) => {
  const { account, key } = await createCompany(operatorAccountDeps(), operator.id, {
    name: body.name,
    timezone: body.timezone,
    contactEmail: body.contact_email,
  });
  return created({ account: accountResource(account), key: apiKeyWithSecretResource(key.key, key.secret) });
});
