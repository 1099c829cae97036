/**
 * Production access (docs/keys-and-access.md#production-access-companies): a company owner asks, the operator approves with a plan or denies
 * with a reason, and may later revoke with a reason. The transitions are here, pure, so the API,
 * the operator API and the tests agree on every one.
 */
export type ProductionAccessStatus = 'none' | 'pending' | 'approved' | 'denied' | 'revoked';
export type ProductionAccessDecision = 'approve' | 'deny' | 'revoke';

export interface ProductionAccessRequest {
  id: string;
  accountId: string;
  status: Exclude<ProductionAccessStatus, 'none'>;
  useCase: string;
  expectedVehicles: number;
  contactEmail: string;
  requestedAt: string;
  /** The key that asked. */
  requestedBy: string;
  decidedAt: string | null;
  /** Who decided (the operator's identity). */
  decidedBy: string | null;
  /** The plan granted on approval. */
  planName: string | null;
  /** Why it was denied or revoked. */
  reason: string | null;
}

/** Why a new request cannot be made now, or null when it can (none, denied and revoked may ask again). */
export function requestRefusal(current: ProductionAccessStatus): string | null {
  if (current === 'pending')
    return 'A production-access request is already pending; the operator will decide it.';
  if (current === 'approved')
    return 'Production access is already approved; create live keys with POST /v1/keys.';
  return null;
}

const DECISION_FROM: Record<ProductionAccessDecision, ProductionAccessRequest['status']> = {
  approve: 'pending',
  deny: 'pending',
  revoke: 'approved',
};

const DECISION_TO: Record<ProductionAccessDecision, ProductionAccessRequest['status']> = {
  approve: 'approved',
  deny: 'denied',
  revoke: 'revoked',
};

/** The status a decision leads to, or why it cannot be taken from the request's current status. */
export function decide(
  request: Pick<ProductionAccessRequest, 'status'>,
  decision: ProductionAccessDecision,
): { status: ProductionAccessRequest['status'] } | { refusal: string } {
  if (request.status !== DECISION_FROM[decision]) {
    return {
      refusal: `Only a ${DECISION_FROM[decision]} request can be ${pastTense(decision)}; this one is ${request.status}.`,
    };
  }
  return { status: DECISION_TO[decision] };
}

function pastTense(decision: ProductionAccessDecision): string {
  return decision === 'approve' ? 'approved' : decision === 'deny' ? 'denied' : 'revoked';
}
