import { createEventFeedStore } from '../store/event-feed.ts';
import type { EventFeedDeps } from '../usecases/event-feed.ts';
import { perInfrastructure } from './infrastructure.ts';

/** GET /v1/events and GET /v1/events/{id}: the stored events, read back. */
export const eventFeedDeps = /* @__PURE__ */ perInfrastructure(
  ({ client, config, cursors, clock }): EventFeedDeps => ({
    feed: createEventFeedStore(client, config.tableName, cursors),
    now: clock.now,
  }),
);
