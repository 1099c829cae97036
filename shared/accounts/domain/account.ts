import type { KeyOwnerType } from '#shared/keys/domain/api-key.ts';
import type { ProductionAccessStatus } from './production-access.ts';

/**
 * A customer of the service, in the control plane both stages read: a partner (telematics/TMS
 * vendor managing many fleets) or a company (one fleet, with a sandbox twin and — once production
 * access is approved — a live fleet). Keys belong to an account; usage is counted per account.
 */
export interface Account {
  id: string;
  type: KeyOwnerType;
  name: string;
  contactEmail: string | null;
  /** Companies: the IANA zone their fleets report in. */
  timezone: string | null;
  /** The plan new keys of this account get. */
  planName: string;
  /** Companies: the production fleet, created when production access is first approved. */
  liveFleetId: string | null;
  /** Companies: the sandbox twin, created with the company. */
  sandboxFleetId: string | null;
  /** Companies: where their latest production-access request stands (`none` before any). */
  productionAccess: ProductionAccessSummary;
  createdAt: string;
}

export interface ProductionAccessSummary {
  status: ProductionAccessStatus;
  requestId: string | null;
  reason: string | null;
  decidedAt: string | null;
}

export const NO_PRODUCTION_ACCESS: ProductionAccessSummary = {
  status: 'none',
  requestId: null,
  reason: null,
  decidedAt: null,
};

/** Plans a new company's keys get until the operator approves production access with a plan. */
export const SANDBOX_PLAN = 'sandbox';
