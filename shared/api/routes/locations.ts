import { defineRoute, type RouteDefinition } from '../../platform/http/route-definition.ts';
import { LOCATION_BATCH_LIMITS, locationBatchBody, locationBatchResult } from '../schemas/locations.ts';

export const locationRoutes = {
  ingestLocations: defineRoute({
    operationId: 'ingestLocations',
    method: 'POST',
    path: '/v1/locations',
    summary: 'Push vehicle breadcrumbs (at most 500 items and 1 MB per batch)',
    description:
      'Each item names its vehicle by `vehicle_id` or `external_ref` and is judged on its own: a bad item is rejected with a `code` and a `hint`, the rest are accepted (always 200 for a processed batch). ' +
      '`speed_mph` is stored in km/h. The latest position only moves forward in time.',
    tags: ['Locations'],
    access: 'fleet',
    scope: 'locations:write',
    family: 'locations',
    role: 'api',
    idempotent: false,
    request: { body: locationBatchBody, maxBodyBytes: LOCATION_BATCH_LIMITS.maxBytes },
    responses: [{ status: 200, description: 'Per-item results', schema: locationBatchResult }],
    errors: ['batch_too_large'],
    handler: 'functions/http/locations/ingest-locations.ts',
  }),
} satisfies Record<string, RouteDefinition>;
