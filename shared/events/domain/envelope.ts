import { canonicalJson } from '#shared/kernel/canonical-json.ts';
import type { EventType } from './events.ts';

/** An event as it is recorded, delivered and answered: its envelope. */
export interface EventEnvelope {
  id: string;
  type: EventType;
  api_version: string;
  sandbox: boolean;
  sequence: number;
  occurred_at: string;
  fleet_id: string;
  data: Record<string, unknown>;
}

/**
 * The envelope as every delivery carries it and GET /v1/events/{id} answers it: the envelope's
 * members in the spec's order, `data` as its builder wrote it. It is stored with the event
 * (`body`), because DynamoDB keeps no member order in a map: an envelope read back from the table
 * may list its members differently, so the stored text, not a re-serialization, is what counts.
 */
export function eventBody(event: EventEnvelope): string {
  const { id, type, api_version, sandbox, sequence, occurred_at, fleet_id, data } = event;
  return canonicalJson({ id, type, api_version, sandbox, sequence, occurred_at, fleet_id, data });
}
