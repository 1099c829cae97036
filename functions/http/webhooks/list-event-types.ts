import { routes } from '../../../shared/api/routes.ts';
import { EVENT_CATALOG } from '../../../shared/domain/events.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

const catalog = {
  data: EVENT_CATALOG.map(({ type, description, dataFields }) => ({
    type,
    description,
    data_fields: dataFields,
  })),
};

export const handler = httpHandler(routes.listEventTypes, async () => ok(catalog));
