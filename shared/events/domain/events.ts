/**
 * The event catalog (docs/api-guide.md#events-and-webhooks): the only allowed event types. What each type's `data`
 * holds is its schema's (shared/events/api/event-data-schemas.ts): openapi.json publishes it, the
 * builders (event-payloads.ts) are typed by it, and tests check recorded and delivered events
 * against the published document. Every event about a vehicle carries `vehicle_id` and the
 * vehicle's `external_ref` (null when it has none), the key a TMS knows its trucks by; the
 * recorder fills `external_ref` in (shared/events/usecases/event-recording.ts).
 */
export const EVENT_CATALOG = [
  {
    type: 'guidance.updated',
    description: 'The recommended fuel-stop set for a vehicle was created, refreshed or cleared.',
  },
  {
    type: 'guidance.stop_approaching',
    description: 'A vehicle came within the proximity radius of a recommended fuel stop.',
  },
  {
    type: 'vehicle.stop_arrived',
    description: 'GPS detected a vehicle arriving at a stop.',
  },
  {
    type: 'vehicle.stop_departed',
    description: 'GPS detected a vehicle departing a stop.',
  },
  { type: 'trip.started', description: 'A dispatch trip became active.' },
  { type: 'trip.completed', description: 'A dispatch trip completed.' },
  {
    type: 'trip.cancelled',
    description: 'A dispatch trip was cancelled.',
  },
  {
    type: 'fueling.recorded',
    description: 'A fueling was detected from a tank-level rise.',
  },
  {
    type: 'fueling.matched',
    description:
      'A fueling (detected from a tank-level rise, or reported) was matched to a recommended guidance stop or a trip fuel stop.',
  },
  {
    type: 'fueling.flagged',
    description: "A reported card purchase does not agree with the vehicle's own data.",
  },
  {
    type: 'vehicle.fuel_low',
    description: 'Fuel percentage crossed the low-fuel threshold (with hysteresis).',
  },
  {
    type: 'vehicle.offline',
    description: 'A previously reporting vehicle stopped sending locations.',
  },
  {
    type: 'vehicle.online',
    description: 'An offline vehicle resumed reporting.',
  },
  {
    type: 'fleet.provisioned',
    description: 'A fleet was created through the provisioning API.',
  },
] as const satisfies readonly { type: string; description: string }[];

export type EventType = (typeof EVENT_CATALOG)[number]['type'];

/** The launch value of the event schema version. */
export const EVENT_API_VERSION = '2026-07-01';

/** Events stay replayable this long (DynamoDB TTL removes them after). */
export const EVENT_RETENTION_DAYS = 30;

/** The highest sequence an event can carry: its sort key pads it to 12 digits (shared/events/store/events.ts). */
export const MAX_EVENT_SEQUENCE = 999_999_999_999;
