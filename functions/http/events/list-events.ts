import { listEventsOperation } from '#shared/events/api/operations.ts';
import { listEvents } from '#shared/events/usecases/event-feed.ts';
import { eventFeedDeps } from '#shared/events/wiring/events.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listEventsOperation, async ({ query }, context) =>
  ok(
    await listEvents(
      eventFeedDeps(),
      actingFleetId(context),
      { afterSequence: query.after_sequence, type: query.type },
      query.limit,
      query.cursor,
    ),
  ),
);
