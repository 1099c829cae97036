import { listEventTypesRoute } from '../../../shared/api/routes/webhooks.ts';
import { eventTypesResource } from '../../../shared/api/serializers/webhooks.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

const catalog = eventTypesResource();

export const handler = httpHandler(listEventTypesRoute, async () => ok(catalog));
