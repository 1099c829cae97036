import type { Page } from '#shared/table/cursor.ts';
import type { AuditEntry } from '../domain/audit.ts';
import type { AuditStore } from '../store/audit-log.ts';

/** GET /admin/v1/audit: the trail newest first, all of it or one account's. */
export function listAuditEntries(
  deps: { audit: Pick<AuditStore, 'list'> },
  accountId: string | undefined,
  limit: number,
  cursor: string | undefined,
): Promise<Page<AuditEntry>> {
  return deps.audit.list({ accountId }, limit, cursor);
}
