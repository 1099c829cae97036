import { listAuditEntries } from '#shared/accounts/usecases/audit.ts';
import { auditStore } from '#shared/accounts/wiring/audit.ts';
import { listAuditOperation } from '#shared/admin/api/operations.ts';
import { auditEntryResource } from '#shared/admin/api/serializers.ts';
import { adminHandler } from '#shared/admin/wiring/admin.ts';
import { pageResource } from '#shared/api/common-serializers.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(listAuditOperation, async ({ query }) => {
  const page = await listAuditEntries({ audit: auditStore() }, query.account_id, query.limit, query.cursor);
  return ok(pageResource(page, auditEntryResource));
});
