import { exampleId, exampleStationId } from './example.ts';

/**
 * The one story every example tells, so ids, places and times agree across operations: a partner
 * (a TMS) runs the fleet "Red River Freight"; truck TRUCK-042 drives north on I-35 from Dallas
 * and then west on I-40 to a distribution centre in Amarillo, on 21 November 2026 (UTC).
 * Coordinates carry 5 decimals, the precision the API answers with (shared/kernel/rounding.ts).
 */
export const FLEET_CREATED_AT = '2026-01-12T16:20:05.481000Z';
export const VEHICLE_CREATED_AT = '2026-02-03T14:07:31.902000Z';
export const WEBHOOK_CREATED_AT = '2026-03-09T18:41:12.330000Z';
/** "Now" in the examples: the latest breadcrumb was recorded shortly before. */
export const NOW = '2026-11-21T22:26:10.123000Z';
export const RECORDED_AT = '2026-11-21T22:25:48.000000Z';
export const RECEIVED_AT = '2026-11-21T22:25:49.317000Z';
export const GUIDANCE_STARTED_AT = '2026-11-21T20:02:17.645000Z';

export const IDS = {
  partner: exampleId('partner', '2025-11-04T09:00:00Z', 'red-river-tms'),
  partnerKey: exampleId('apiKey', '2025-11-04T09:05:00Z', 'red-river-tms-key'),
  fleet: exampleId('fleet', FLEET_CREATED_AT, 'red-river-freight'),
  vehicle: exampleId('vehicle', VEHICLE_CREATED_AT, 'truck-042'),
  otherVehicle: exampleId('vehicle', '2026-02-03T14:09:02.115000Z', 'truck-043'),
  route: exampleId('route', NOW, 'dallas-amarillo'),
  guidance: exampleId('guidance', GUIDANCE_STARTED_AT, 'truck-042-guidance'),
  guidanceStop: exampleId('guidanceStop', '2026-11-21T21:48:03.212000Z', 'truck-042-stop-1'),
  skippedStop: exampleId('guidanceStop', '2026-11-21T20:02:17.645000Z', 'truck-042-stop-0'),
  webhook: exampleId('webhookEndpoint', WEBHOOK_CREATED_AT, 'red-river-webhook'),
  delivery: exampleId('webhookDelivery', '2026-11-21T21:48:04.020000Z', 'delivery-1'),
  replayDelivery: exampleId('webhookDelivery', NOW, 'delivery-1-replay'),
  event: exampleId('event', '2026-11-21T21:48:03.500000Z', 'guidance-updated-7'),
  testEvent: exampleId('event', NOW, 'test-event'),
} as const;

export const VEHICLE = {
  external_ref: 'TRUCK-042',
  name: 'Truck 42 (Freightliner Cascadia)',
  vin: '3AKJHHDR7NSNB4521',
  license_plate: 'TX R42-7781',
  tank_size_gallons: 240,
  estimated_mpg: 6.8,
} as const;

/** Real truck stops on I-35 and I-40 (positions rounded to 5 decimals), with plausible prices. */
export const STATIONS = {
  lovesGainesville: {
    id: exampleStationId('loves-gainesville-tx-i35-exit-498'),
    name: "Love's Travel Stop Gainesville (I-35 exit 498)",
    chain: "Love's",
    latitude: 33.66542,
    longitude: -97.14633,
    address: '4413 N Interstate 35, Gainesville, TX 76240',
    state: 'TX',
  },
  pilotArdmore: {
    id: exampleStationId('pilot-ardmore-ok-i35-exit-33'),
    name: 'Pilot Travel Center Ardmore (I-35 exit 33)',
    chain: 'Pilot',
    latitude: 34.15869,
    longitude: -97.16453,
    address: '2705 Ok-142, Ardmore, OK 73401',
    state: 'OK',
  },
  taOklahomaCity: {
    id: exampleStationId('ta-oklahoma-city-ok-i40-exit-140'),
    name: 'TA Oklahoma City West (I-40 exit 140)',
    chain: 'TA',
    latitude: 35.46223,
    longitude: -97.72516,
    address: '501 S Morgan Rd, Oklahoma City, OK 73128',
    state: 'OK',
  },
  lovesElReno: {
    id: exampleStationId('loves-el-reno-ok-i40-exit-123'),
    name: "Love's Travel Stop El Reno (I-40 exit 123)",
    chain: "Love's",
    latitude: 35.50988,
    longitude: -97.97366,
    address: '2600 S Country Club Rd, El Reno, OK 73036',
    state: 'OK',
  },
} as const;

/** Where TRUCK-042 is now: northbound on I-35 south of Gainesville, TX. */
export const POSITION = { latitude: 33.59912, longitude: -97.14811 } as const;

export const DESTINATION = {
  latitude: 35.19068,
  longitude: -101.72873,
  name: 'Amarillo DC (I-40 exit 74)',
} as const;

export const ORIGIN = { latitude: 32.81483, longitude: -96.87512, name: 'Dallas yard (I-35E)' } as const;

export const CATALOG_VERSION = 'catalog-2026-11-21T06';

/**
 * TRUCK-042's dispatch trip for load LOAD-88213: planned the day before from the Dallas yard to the
 * Amarillo DC, with a pickup at an Oklahoma City cross-dock; started when its guidance opened.
 */
export const TRIP_CREATED_AT = '2026-11-20T16:05:12.408000Z';
export const TRIP_IDS = {
  trip: exampleId('trip', TRIP_CREATED_AT, 'load-88213'),
  pickupStop: exampleId('tripStop', TRIP_CREATED_AT, 'load-88213-pickup'),
  fuelStop: exampleId('tripStop', TRIP_CREATED_AT, 'load-88213-fuel-1'),
  /** TRUCK-042's trip of the day before, still active when this one is started. */
  otherTrip: exampleId('trip', '2026-11-19T15:12:40.771000Z', 'load-88107'),
} as const;
