import { listEventsRoute } from '../../../shared/api/routes/events.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listEvents } from '../../../shared/usecases/event-feed.ts';
import { eventFeedDeps } from '../../../shared/wiring/events.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(listEventsRoute, async ({ query }, context) =>
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
