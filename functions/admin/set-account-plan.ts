import { setAccountPlanRoute } from '../../shared/api/admin-routes.ts';
import { accountResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { setAccountPlan } from '../../shared/usecases/operator-accounts.ts';
import { adminHandler, operatorAccountDeps } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(setAccountPlanRoute, async ({ params, body }, { operator }) => {
  const { account, keysMoved } = await setAccountPlan(
    operatorAccountDeps(),
    operator.id,
    params.id,
    body.plan,
  );
  return ok({ account: accountResource(account), keys_moved: keysMoved });
});
