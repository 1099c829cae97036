import { putPlanRoute } from '../../shared/api/admin-routes.ts';
import { planOf } from '../../shared/api/schemas/admin.ts';
import { planResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { putPlan } from '../../shared/usecases/plans.ts';
import { adminHandler, planDeps } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(putPlanRoute, async ({ params, body }, { operator }) =>
  ok(planResource(await putPlan(planDeps(), operator.id, planOf(params.name, body)))),
);
