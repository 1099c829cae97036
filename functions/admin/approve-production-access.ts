import { decideProductionAccess } from '#shared/accounts/usecases/production-access.ts';
import { productionAccessDeps } from '#shared/accounts/wiring/production-access.ts';
import { approveProductionAccessOperation } from '#shared/admin/api/operations.ts';
import { productionAccessRequestResource } from '#shared/admin/api/serializers.ts';
import { adminHandler } from '#shared/admin/wiring/admin.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(
  approveProductionAccessOperation,
  async ({ params, body }, { operator }) => {
    const decided = await decideProductionAccess(productionAccessDeps(), operator.id, params.id, 'approve', {
      plan: body.plan,
    });
    return ok(productionAccessRequestResource(decided));
  },
);
