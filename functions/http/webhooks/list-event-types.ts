import { ok } from '#shared/platform/http/types.ts';
import { listEventTypesOperation } from '#shared/webhooks/api/operations.ts';
import { eventTypesResource } from '#shared/webhooks/api/serializers.ts';
import { httpHandler } from '#shared/wiring/http.ts';

const catalog = eventTypesResource();

export const handler = httpHandler(listEventTypesOperation, async () => ok(catalog));
