import { approveProductionAccessRoute } from '../../shared/api/admin-routes.ts';
import { productionAccessRequestResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { decideProductionAccess } from '../../shared/usecases/production-access.ts';
import { productionAccessDeps } from '../../shared/wiring/access.ts';
import { adminHandler } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(approveProductionAccessRoute, async ({ params, body }, { operator }) => {
  const decided = await decideProductionAccess(productionAccessDeps(), operator.id, params.id, 'approve', {
    plan: body.plan,
  });
  return ok(productionAccessRequestResource(decided));
});
