import { listProductionAccessRequests } from '#shared/accounts/usecases/production-access.ts';
import { productionAccessDeps } from '#shared/accounts/wiring/production-access.ts';
import { listProductionAccessRequestsOperation } from '#shared/admin/api/operations.ts';
import { productionAccessRequestResource } from '#shared/admin/api/serializers.ts';
import { adminHandler } from '#shared/admin/wiring/admin.ts';
import { pageResource } from '#shared/api/common-serializers.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(listProductionAccessRequestsOperation, async ({ query }) => {
  const page = await listProductionAccessRequests(
    productionAccessDeps(),
    query.status,
    query.limit,
    query.cursor,
  );
  return ok(pageResource(page, productionAccessRequestResource));
});
