import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { createAuditStore } from '../store/audit-log.ts';

/** The control plane's audit trail (accounts, keys and production access write to it). */
export const auditStore = /* @__PURE__ */ perInfrastructure(({ client, config, cursors }) =>
  createAuditStore(client, config.controlTableName, cursors),
);
