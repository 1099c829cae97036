import { type ExamplesFor, exampleId, rejected } from '#shared/api/example.ts';
import { IDS, NOW, VEHICLE } from '#shared/api/example-fixtures.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { testEventSamples } from '#shared/webhooks/usecases/webhook-test-samples.ts';
import { EVENT_API_VERSION, EVENT_CATALOG, EVENT_RETENTION_DAYS, type EventType } from '../domain/events.ts';
import type { eventOperations } from './operations.ts';
import { listEventsQuery } from './schemas.ts';

/** The guidance.updated of the webhook examples (its delivery is IDS.delivery), sequence 7. */
const guidanceUpdated = {
  id: IDS.event,
  type: 'guidance.updated',
  api_version: EVENT_API_VERSION,
  sandbox: false,
  sequence: 7,
  occurred_at: '2026-11-21T21:48:03.500000Z',
  fleet_id: IDS.fleet,
  data: {
    vehicle_id: IDS.vehicle,
    external_ref: VEHICLE.external_ref,
    guidance_id: IDS.guidance,
    change: 'refreshed',
    status: 'active',
    phase: 'stop_recommended',
    plan_status: 'ok',
    stop_ids: [IDS.guidanceStop],
  },
};

const fuelLow = {
  id: exampleId('event', '2026-11-21T22:05:41.250000Z', 'fuel-low-8'),
  type: 'vehicle.fuel_low',
  api_version: EVENT_API_VERSION,
  sandbox: false,
  sequence: 8,
  occurred_at: '2026-11-21T22:05:41.250000Z',
  fleet_id: IDS.fleet,
  data: {
    vehicle_id: IDS.vehicle,
    external_ref: VEHICLE.external_ref,
    fuel_level_percent: 18.5,
    threshold_percent: 20,
    latitude: 34.18764,
    longitude: -97.16498,
    recorded_at: '2026-11-21T22:05:40.000000Z',
  },
};

export const eventExamples = {
  listEvents: {
    // A receiver that processed sequence 6 and then saw 9 fetches 7 and 8.
    request: { query: { after_sequence: '6', limit: '25' } },
    responses: { 200: { data: [guidanceUpdated, fuelLow], next_cursor: null } },
    problem: rejected('query', listEventsQuery, { type: 'vehicle.fuel_empty' }),
  },
  getEvent: {
    request: { params: { id: IDS.event } },
    responses: { 200: guidanceUpdated },
    problem: new ApiError(
      'event_expired',
      `Event ${IDS.event} is past its ${EVENT_RETENTION_DAYS}-day replay window.`,
    ),
  },
} satisfies ExamplesFor<typeof eventOperations>;

/**
 * One delivery of each type, as the `webhooks` section of openapi.json shows it: a real event's
 * envelope (not a test send's) around the `data` a test send of the type carries, every member filled in.
 */
export function webhookEventExamples(): Record<EventType, unknown> {
  const samples = testEventSamples(Date.parse(NOW), IDS.fleet);
  return Object.fromEntries(
    EVENT_CATALOG.map(({ type }, index) => [
      type,
      {
        id: exampleId('event', NOW, `webhook-example-${type}`),
        type,
        api_version: EVENT_API_VERSION,
        sandbox: false,
        sequence: 21 + index,
        occurred_at: NOW,
        fleet_id: IDS.fleet,
        data: samples[type],
      },
    ]),
  ) as Record<EventType, unknown>;
}
