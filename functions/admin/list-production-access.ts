import { listProductionAccessRequestsRoute } from '../../shared/api/admin-routes.ts';
import { productionAccessRequestResource } from '../../shared/api/serializers/admin.ts';
import { pageResource } from '../../shared/api/serializers/common.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { listProductionAccessRequests } from '../../shared/usecases/production-access.ts';
import { productionAccessDeps } from '../../shared/wiring/access.ts';
import { adminHandler } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(listProductionAccessRequestsRoute, async ({ query }) => {
  const page = await listProductionAccessRequests(
    productionAccessDeps(),
    query.status,
    query.limit,
    query.cursor,
  );
  return ok(pageResource(page, productionAccessRequestResource));
});
