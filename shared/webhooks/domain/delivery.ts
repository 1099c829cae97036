import type { WebhookOwner } from './endpoint.ts';

export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed';

/** One event on its way to one endpoint, across all its attempts. */
export interface WebhookDelivery {
  id: string;
  owner: WebhookOwner;
  endpointId: string;
  eventId: string;
  eventType: string;
  fleetId: string;
  /** The exact bytes every attempt sends (and the signature covers). */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  isReplay: boolean;
  createdAt: string;
  lastAttemptAt: string | null;
  nextRetryAt: string | null;
  completedAt: string | null;
  /** When the event leaves the replay window (epoch ms); replays after it are 410. */
  eventExpiresAtMs: number;
}

/** The queue message that asks the dispatcher for one attempt. */
export interface DeliveryMessage {
  owner: WebhookOwner;
  deliveryId: string;
  endpointId: string;
  /** The attempt this message asks for (1-based): a duplicate or stale message is ignored. */
  attempt: number;
}
