import { decideProductionAccess } from '#shared/accounts/usecases/production-access.ts';
import { productionAccessDeps } from '#shared/accounts/wiring/production-access.ts';
import { denyProductionAccessOperation } from '#shared/admin/api/operations.ts';
import { productionAccessRequestResource } from '#shared/admin/api/serializers.ts';
import { adminHandler } from '#shared/admin/wiring/admin.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(denyProductionAccessOperation, async ({ params, body }, { operator }) => {
  const decided = await decideProductionAccess(productionAccessDeps(), operator.id, params.id, 'deny', {
    reason: body.reason,
  });
  return ok(productionAccessRequestResource(decided));
});
