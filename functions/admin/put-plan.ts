import { putPlanOperation } from '#shared/admin/api/operations.ts';
import { planOf } from '#shared/admin/api/schemas.ts';
import { planResource } from '#shared/admin/api/serializers.ts';
import { adminHandler, planDeps } from '#shared/admin/wiring/admin.ts';
import { putPlan } from '#shared/plans/usecases/plans.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(putPlanOperation, async ({ params, body }, { operator }) =>
  ok(planResource(await putPlan(planDeps(), operator.id, planOf(params.name, body)))),
);
