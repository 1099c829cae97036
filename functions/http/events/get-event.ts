import { getEventOperation } from '#shared/events/api/operations.ts';
import { getEvent } from '#shared/events/usecases/event-feed.ts';
import { eventFeedDeps } from '#shared/events/wiring/events.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

// The envelope keeps the member order it was delivered with; the chain's canonical JSON of it
// is then the delivered text again, byte for byte.
export const handler = httpHandler(getEventOperation, async ({ params }, context) =>
  ok(await getEvent(eventFeedDeps(), actingFleetId(context), params.id)),
);
