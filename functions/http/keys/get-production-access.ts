import { getProductionAccessRoute } from '../../../shared/api/routes/keys.ts';
import { productionAccessResource } from '../../../shared/api/serializers/keys.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { describeProductionAccess } from '../../../shared/usecases/production-access.ts';
import { productionAccessDeps } from '../../../shared/wiring/access.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(getProductionAccessRoute, async (_input, context) => {
  const { account, request } = await describeProductionAccess(
    productionAccessDeps(),
    actingPrincipal(context).accountId,
  );
  return ok(productionAccessResource(account, request));
});
