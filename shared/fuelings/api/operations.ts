import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  FUELING_BATCH_LIMITS,
  fuelingBatchBody,
  fuelingBatchResult,
  fuelingPage,
  listFuelingsQuery,
  publishedFuelingBatchBody,
} from './schemas.ts';

/** Recording fuelings needs fuelings:write; reading them, usage:read. */
const fuelingOperation = routeGroup({
  tags: ['Fuelings'],
  handlers: 'functions/http/fuelings',
  access: 'fleet',
  family: 'fuelings',
  role: 'api',
});

export const recordFuelingsOperation = /* @__PURE__ */ fuelingOperation({
  operationId: 'recordFuelings',
  route: 'POST /v1/fuelings',
  summary: 'Record fuel purchases (at most 500 items and 1 MB per batch)',
  description:
    'Each item names its vehicle by `vehicle_id` or `external_ref` and is judged on its own: a bad item is rejected with `code`, `hint` and, for validation, `errors[{field, message}]`; the rest are accepted (always 200 for a processed batch). ' +
    'A `card_transaction_ref` already recorded in the fleet is answered `duplicate` with the existing `id`, never recorded twice, concurrent batches included; so is the same fill re-sent without one (same vehicle, `fueled_at`, `gallons` and `station_id`). ' +
    'An item that could not be recorded right now is rejected `storage_unavailable`: resend it with backoff. ' +
    'A reported fill and a detected one (tank-level rise) of the same vehicle within 0.5 mile and 60 minutes are one fill, linked both ways (`linked_fueling_id`). ' +
    'A fill at a recommended guidance stop or trip fuel stop (the station its `station_id` names, or, naming none, within 0.5 mile of the station; shown at most 30 minutes after the fill and standing at some moment of the 6 hours before it, withdrawn or not) is matched and fires `fueling.matched`.',
  scope: 'fuelings:write',
  idempotent: true,
  request: {
    body: fuelingBatchBody,
    publishedBody: publishedFuelingBatchBody,
    maxBodyBytes: FUELING_BATCH_LIMITS.maxBytes,
  },
  responses: [{ status: 200, description: 'Per-item results', schema: fuelingBatchResult }],
  errors: ['batch_too_large'],
});

export const listFuelingsOperation = /* @__PURE__ */ fuelingOperation({
  operationId: 'listFuelings',
  route: 'GET /v1/fuelings',
  summary: "The fleet's fuelings, newest first",
  description:
    'Filter by `vehicle_id` (`veh_` or `ext:`; a vehicle outside the fleet is 404), `fueled_at` bounds `from`/`to` (inclusive) and `source`. Without `source`, each fill is listed once: a detection merged into a reported fueling appears only with `source=detected`.',
  scope: 'usage:read',
  idempotent: false,
  request: { query: listFuelingsQuery },
  responses: [{ status: 200, description: 'A page of fuelings', schema: fuelingPage }],
  errors: ['resource_not_found'],
});

export const fuelingOperations = {
  recordFuelings: recordFuelingsOperation,
  listFuelings: listFuelingsOperation,
} satisfies Record<string, RouteDefinition>;
