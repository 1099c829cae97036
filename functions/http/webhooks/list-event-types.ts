import { routes } from '../../../shared/api/routes.ts';
import { EVENT_CATALOG } from '../../../shared/domain/events.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';

const catalog = {
  data: EVENT_CATALOG.map(({ type, description, dataFields }) => ({
    type,
    description,
    data_fields: dataFields,
  })),
};

export const handler = createHttpHandler(routes.listEventTypes, async () => ok(catalog));
