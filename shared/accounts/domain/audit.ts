/**
 * A fact an audit entry keeps: a value, a list (the scopes granted) or a table of numbers (a plan's
 * quotas). The operator API publishes the same shapes (`AuditEntry.details`).
 */
export type AuditDetail = string | number | boolean | null | string[] | Partial<Record<string, number>>;

/**
 * One action on access: who (the operator, or an owner key), when, what, on which account and
 * object, and why. `GET /admin/v1/audit` lists them; nothing ever edits one.
 */
export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: 'operator' | 'key'; id: string };
  /** e.g. `key.created`, `key.rotated`, `production_access.approved`, `plan.updated`, `fuel_tax_rate.set`. */
  action: string;
  accountId: string | null;
  target: { type: 'key' | 'account' | 'production_access' | 'plan' | 'fuel_tax_rate'; id: string };
  reason: string | null;
  /** Small facts worth keeping (scopes granted, the plan set…); never a secret. */
  details: Record<string, AuditDetail>;
}

/** The port use cases write to; the control-plane store implements it. */
export interface AuditLog {
  record(entry: Omit<AuditEntry, 'id'>): Promise<void>;
}
