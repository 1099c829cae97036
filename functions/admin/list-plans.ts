import { listPlansRoute } from '../../shared/api/admin-routes.ts';
import { planResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { listPlans } from '../../shared/usecases/plans.ts';
import { adminHandler, planDeps } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(listPlansRoute, async () =>
  ok({ data: (await listPlans(planDeps())).map(planResource) }),
);
