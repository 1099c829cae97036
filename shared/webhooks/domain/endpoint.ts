import type { EventType } from '#shared/events/domain/events.ts';

/** Who an endpoint belongs to: a fleet, or a partner (partner-level endpoints, fleet.provisioned). */
export type WebhookOwner = { kind: 'fleet'; fleetId: string } | { kind: 'partner'; partnerId: string };

export type WebhookStatus = 'active' | 'disabled';

/** After a rotation the previous secret keeps signing for this long (24 hours). */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000;

export interface WebhookSecret {
  value: string;
  /** Null for the current secret; set when a rotation retired it. */
  expiresAtMs: number | null;
}

export interface WebhookEndpoint {
  id: string;
  owner: WebhookOwner;
  url: string;
  /** Catalog types, or `['*']` for every type. */
  eventTypes: string[];
  description: string | null;
  status: WebhookStatus;
  disabledReason: string | null;
  /** Current secret first. */
  secrets: WebhookSecret[];
  consecutiveFailedDeliveries: number;
  /** The last 2xx, creation or re-enable (epoch ms): the auto-disable rule's clock. */
  healthySinceMs: number;
  createdAt: string;
  updatedAt: string;
}

export const WILDCARD = '*';

export function subscribes(endpoint: Pick<WebhookEndpoint, 'eventTypes'>, type: EventType): boolean {
  return endpoint.eventTypes.includes(WILDCARD) || endpoint.eventTypes.includes(type);
}

/** Secrets that sign a delivery now: the current one and any retired less than 24 hours ago. */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secrets'>, nowMs: number): string[] {
  return endpoint.secrets
    .filter((secret) => secret.expiresAtMs === null || secret.expiresAtMs > nowMs)
    .map((secret) => secret.value);
}

/** Rotation: the new secret becomes current; the old current one expires in 24 hours; expired ones go. */
export function rotateSecrets(
  secrets: readonly WebhookSecret[],
  fresh: string,
  nowMs: number,
): WebhookSecret[] {
  return [
    { value: fresh, expiresAtMs: null },
    ...secrets
      .map((secret) =>
        secret.expiresAtMs === null
          ? { ...secret, expiresAtMs: nowMs + PREVIOUS_SECRET_VALIDITY_MS }
          : secret,
      )
      .filter((secret) => (secret.expiresAtMs ?? Number.POSITIVE_INFINITY) > nowMs),
  ];
}

/** The type a test send uses without a body: the first subscribed type, `guidance.updated` for `*`. */
export function defaultTestEventType(endpoint: Pick<WebhookEndpoint, 'eventTypes'>): string {
  const first = endpoint.eventTypes[0];
  return !first || first === WILDCARD ? 'guidance.updated' : first;
}
