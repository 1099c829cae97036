import { listAuditRoute } from '../../shared/api/admin-routes.ts';
import { auditEntryResource } from '../../shared/api/serializers/admin.ts';
import { pageResource } from '../../shared/api/serializers/common.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { listAuditEntries } from '../../shared/usecases/audit.ts';
import { auditStore } from '../../shared/wiring/access.ts';
import { adminHandler } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(listAuditRoute, async ({ query }) => {
  const page = await listAuditEntries({ audit: auditStore() }, query.account_id, query.limit, query.cursor);
  return ok(pageResource(page, auditEntryResource));
});
