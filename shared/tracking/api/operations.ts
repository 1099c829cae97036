import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  LOCATION_BATCH_LIMITS,
  locationBatchBody,
  locationBatchResult,
  publishedLocationBatchBody,
} from './schemas.ts';

const locationOperation = routeGroup({
  tags: ['Locations'],
  handlers: 'functions/http/tracking',
  access: 'fleet',
  scope: 'locations:write',
  family: 'locations',
  role: 'api',
  idempotent: false,
});

export const ingestLocationsOperation = /* @__PURE__ */ locationOperation({
  operationId: 'ingestLocations',
  route: 'POST /v1/locations',
  summary: 'Push vehicle breadcrumbs (at most 500 items and 1 MB per batch)',
  description:
    'Each item names its vehicle by `vehicle_id` or `external_ref` and is judged on its own: a bad item is rejected with a `code` and a `hint`, the rest are accepted (always 200 for a processed batch). ' +
    '`recorded_at` must lie within the last 90 days (the history kept) and at most 5 minutes ahead, else the item is rejected `validation_failed` with a hint saying which. ' +
    'An item that could not be stored is rejected `storage_unavailable`: resend it with backoff; a breadcrumb (vehicle, `recorded_at`) is stored once however often it is sent, so resending the whole batch is safe. ' +
    'Only when none of the batch could be stored is the answer 503 `storage_unavailable`. ' +
    '`speed_mph` is stored in km/h and read back in mph (GET /v1/vehicles/{id}/location). The latest position only moves forward in time.',
  request: {
    body: locationBatchBody,
    publishedBody: publishedLocationBatchBody,
    maxBodyBytes: LOCATION_BATCH_LIMITS.maxBytes,
  },
  responses: [{ status: 200, description: 'Per-item results', schema: locationBatchResult }],
  errors: ['batch_too_large', 'storage_unavailable'],
});

export const locationOperations = {
  ingestLocations: ingestLocationsOperation,
} satisfies Record<string, RouteDefinition>;
