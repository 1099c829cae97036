import { setAccountPlanOperation } from '#shared/admin/api/operations.ts';
import { accountResource } from '#shared/admin/api/serializers.ts';
import { setAccountPlan } from '#shared/admin/usecases/operator-accounts.ts';
import { adminHandler, operatorAccountDeps } from '#shared/admin/wiring/admin.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(setAccountPlanOperation, async ({ params, body }, { operator }) => {
  const { account, keysMoved } = await setAccountPlan(
    operatorAccountDeps(),
    operator.id,
    params.id,
    body.plan,
  );
  return ok({ account: accountResource(account), keys_moved: keysMoved });
});
