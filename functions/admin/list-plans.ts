import { listPlansOperation } from '#shared/admin/api/operations.ts';
import { planResource } from '#shared/admin/api/serializers.ts';
import { adminHandler, planDeps } from '#shared/admin/wiring/admin.ts';
import { listPlans } from '#shared/plans/usecases/plans.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(listPlansOperation, async () =>
  ok({ data: (await listPlans(planDeps())).map(planResource) }),
);
