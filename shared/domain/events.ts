/** What trip.started, trip.completed and trip.cancelled carry (trip.cancelled adds the reason given, if any). */
const TRIP_EVENT_FIELDS = ['trip_id', 'vehicle_id', 'external_ref', 'reference', 'status'] as const;

/**
 * The event catalog of spec section 6: the only allowed event types, with the members of each
 * type's `data` (a `?` marks one that is only sometimes there; null: published with the feature
 * that emits it). An integration test checks every recorded event against this list. Every event
 * about a vehicle carries `vehicle_id` and the vehicle's `external_ref` (null when it has none),
 * the key a TMS knows its trucks by; the recorder fills `external_ref` in (store/events.ts).
 */
export const EVENT_CATALOG = [
  {
    type: 'guidance.updated',
    description: 'The recommended fuel-stop set for a vehicle was created, refreshed or cleared.',
    dataFields: [
      'vehicle_id',
      'external_ref',
      'guidance_id',
      'change',
      'status',
      'phase',
      'stop_ids',
      'reason?',
    ],
  },
  {
    type: 'guidance.stop_approaching',
    description: 'A vehicle came within the proximity radius of a recommended fuel stop.',
    dataFields: [
      'vehicle_id',
      'external_ref',
      'guidance_id',
      'stop_id',
      'station',
      'miles_ahead',
      'gallons_to_buy',
    ],
  },
  {
    type: 'vehicle.stop_arrived',
    description: 'GPS detected a vehicle arriving at a stop.',
    dataFields: [
      'vehicle_id',
      'external_ref',
      'guidance_id',
      'stop_id',
      'station',
      'arrived_at',
      'latitude',
      'longitude',
      'trip_id?',
    ],
  },
  {
    type: 'vehicle.stop_departed',
    description: 'GPS detected a vehicle departing a stop.',
    dataFields: [
      'vehicle_id',
      'external_ref',
      'guidance_id',
      'stop_id',
      'station',
      'arrived_at',
      'departed_at',
      'dwell_minutes',
      'trip_id?',
    ],
  },
  { type: 'trip.started', description: 'A dispatch trip became active.', dataFields: TRIP_EVENT_FIELDS },
  { type: 'trip.completed', description: 'A dispatch trip completed.', dataFields: TRIP_EVENT_FIELDS },
  {
    type: 'trip.cancelled',
    description: 'A dispatch trip was cancelled.',
    dataFields: ['trip_id', 'vehicle_id', 'external_ref', 'reference', 'status', 'reason?'],
  },
  {
    type: 'fueling.recorded',
    description: 'A fueling was detected from a tank-level rise.',
    dataFields: [
      'fueling_id',
      'vehicle_id',
      'external_ref',
      'source',
      'gallons',
      'fuel_level_before_percent',
      'fuel_level_after_percent',
      'latitude',
      'longitude',
      'started_at',
      'fueled_at',
    ],
  },
  {
    type: 'fueling.matched',
    description:
      'A fueling (detected from a tank-level rise, or reported) was matched to a recommended guidance stop or a trip fuel stop.',
    dataFields: [
      'fueling_id',
      'vehicle_id',
      'external_ref',
      'guidance_id',
      'trip_id',
      'stop_id',
      'station_id',
      'station',
      'gallons',
      'recommended_gallons',
      'distance_miles',
      'net_price_usd_per_gallon',
      'recommended_net_price_usd_per_gallon',
    ],
  },
  {
    type: 'vehicle.fuel_low',
    description: 'Fuel percentage crossed the low-fuel threshold (with hysteresis).',
    dataFields: [
      'vehicle_id',
      'external_ref',
      'fuel_level_percent',
      'threshold_percent',
      'latitude',
      'longitude',
      'recorded_at',
    ],
  },
  {
    type: 'vehicle.offline',
    description: 'A previously reporting vehicle stopped sending locations.',
    dataFields: ['vehicle_id', 'external_ref', 'last_seen_at', 'offline_after_minutes'],
  },
  {
    type: 'vehicle.online',
    description: 'An offline vehicle resumed reporting.',
    dataFields: [
      'vehicle_id',
      'external_ref',
      'last_seen_at',
      'offline_since_last_seen_at',
      'latitude',
      'longitude',
    ],
  },
  {
    type: 'fleet.provisioned',
    description: 'A fleet was created through the provisioning API.',
    dataFields: ['fleet'],
  },
] as const satisfies readonly { type: string; description: string; dataFields: readonly string[] | null }[];

export type EventType = (typeof EVENT_CATALOG)[number]['type'];

/** The launch value of the event schema version (spec section 9). */
export const EVENT_API_VERSION = '2026-07-01';

/** Events stay replayable this long (DynamoDB TTL removes them after). */
export const EVENT_RETENTION_DAYS = 30;

/** The highest sequence an event can carry: its sort key pads it to 12 digits (store/events.ts). */
export const MAX_EVENT_SEQUENCE = 999_999_999_999;
