import type { ExamplesFor } from '#shared/api/example.ts';
import { IDS, POSITION, VEHICLE } from '#shared/api/example-fixtures.ts';
import { batchTooLarge, unknownVehicleHint } from '#shared/platform/errors.ts';
import type { locationOperations } from './operations.ts';
import { LOCATION_BATCH_LIMITS } from './schemas.ts';

/**
 * Three breadcrumbs a telematics feed would batch: two from TRUCK-042 (by external_ref and by id),
 * one from a truck the fleet never registered, which is rejected on its own.
 */
export const breadcrumbBatch = {
  locations: [
    {
      external_ref: VEHICLE.external_ref,
      latitude: 33.57341,
      longitude: -97.14952,
      recorded_at: '2026-11-21T22:23:48Z',
      fuel_level_percent: 38.9,
      speed_mph: 62,
      heading_degrees: 1,
      driver_ref: 'DRV-1187',
    },
    {
      vehicle_id: IDS.vehicle,
      ...POSITION,
      recorded_at: '2026-11-21T16:25:48-06:00',
      fuel_level_percent: 38.5,
      speed_mph: 63,
      heading_degrees: 2,
      driver_ref: 'DRV-1187',
      address: 'I-35 N, Valley View, TX 76272',
    },
    {
      external_ref: 'TRUCK-099',
      latitude: 35.46311,
      longitude: -97.72208,
      recorded_at: '2026-11-21T22:25:30Z',
      speed_mph: 0,
    },
  ],
};

export const locationExamples = {
  ingestLocations: {
    request: { body: breadcrumbBatch },
    responses: {
      200: {
        accepted: 2,
        rejected: 1,
        results: [
          { index: 0, status: 'accepted' },
          { index: 1, status: 'accepted' },
          {
            index: 2,
            status: 'rejected',
            code: 'unknown_vehicle',
            hint: unknownVehicleHint('with external_ref TRUCK-099'),
          },
        ],
      },
    },
    problem: batchTooLarge(640, LOCATION_BATCH_LIMITS.maxItems, 'items'),
  },
} satisfies ExamplesFor<typeof locationOperations>;
