/** The event catalog of spec section 6: the only allowed event types. */
export const EVENT_CATALOG = [
  {
    type: 'guidance.updated',
    description: 'The recommended fuel-stop set for a vehicle was created, refreshed or cleared.',
  },
  {
    type: 'guidance.stop_approaching',
    description: 'A vehicle came within the proximity radius of a recommended fuel stop.',
  },
  { type: 'vehicle.stop_arrived', description: 'GPS detected a vehicle arriving at a stop.' },
  { type: 'vehicle.stop_departed', description: 'GPS detected a vehicle departing a stop.' },
  { type: 'trip.started', description: 'A dispatch trip became active.' },
  { type: 'trip.completed', description: 'A dispatch trip completed.' },
  { type: 'trip.cancelled', description: 'A dispatch trip was cancelled.' },
  { type: 'fueling.recorded', description: 'A fueling was detected from a tank-level rise.' },
  {
    type: 'fueling.matched',
    description: 'A detected fueling was matched to a recommended or proposed stop.',
  },
  {
    type: 'vehicle.fuel_low',
    description: 'Fuel percentage crossed the low-fuel threshold (with hysteresis).',
  },
  { type: 'vehicle.offline', description: 'A previously reporting vehicle stopped sending locations.' },
  { type: 'vehicle.online', description: 'An offline vehicle resumed reporting.' },
  { type: 'fleet.provisioned', description: 'A fleet was created through the provisioning API.' },
] as const;

export type EventType = (typeof EVENT_CATALOG)[number]['type'];

/** The launch value of the event schema version (spec section 9). */
export const EVENT_API_VERSION = '2026-07-01';

/** Events stay replayable this long (DynamoDB TTL removes them after). */
export const EVENT_RETENTION_DAYS = 30;
