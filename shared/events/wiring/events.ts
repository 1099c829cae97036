import type { Stage } from '#shared/platform/config.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { createVehicleRefReader } from '#shared/vehicles/store/vehicle-refs.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import type { EventEnvelope } from '../domain/envelope.ts';
import { createEventFeedStore } from '../store/event-feed.ts';
import { createEventStore } from '../store/events.ts';
import type { EventFeedDeps } from '../usecases/event-feed.ts';
import { createEventRecorder, type EventRecorder } from '../usecases/event-recording.ts';

/** GET /v1/events and GET /v1/events/{id}: the stored events, read back. */
export const eventFeedDeps = /* @__PURE__ */ perInfrastructure(
  ({ client, config, cursors, clock }): EventFeedDeps => ({
    feed: createEventFeedStore(client, config.tableName, cursors),
    now: clock.now,
  }),
);

/**
 * The event recorder over one table: its events and the vehicles' external_refs read from it,
 * `announce` run after each event is stored (the webhook fan-out in shared/webhooks/wiring/webhooks.ts).
 */
export function eventRecorderOn(
  client: DocumentClient,
  tableName: string,
  stage: Stage,
  now: () => number = Date.now,
  announce?: (event: EventEnvelope, partnerId: string | null) => Promise<unknown>,
): EventRecorder {
  return createEventRecorder({
    events: createEventStore(client, tableName),
    externalRefOf: createVehicleRefReader(client, tableName, now),
    stage,
    now,
    ...(announce ? { announce } : {}),
  });
}
