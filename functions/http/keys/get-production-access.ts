import { describeProductionAccess } from '#shared/accounts/usecases/production-access.ts';
import { productionAccessDeps } from '#shared/accounts/wiring/production-access.ts';
import { getProductionAccessOperation } from '#shared/keys/api/operations.ts';
import { productionAccessResource } from '#shared/keys/api/serializers.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getProductionAccessOperation, async (_input, context) => {
  const { account, request } = await describeProductionAccess(
    productionAccessDeps(),
    actingPrincipal(context).accountId,
  );
  return ok(productionAccessResource(account, request));
});
