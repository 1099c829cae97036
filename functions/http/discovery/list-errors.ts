import { errorRegistryResource } from '#shared/api/error-serializers.ts';
import { listErrorsOperation } from '#shared/discovery/api/operations.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

const registry = errorRegistryResource();

export const handler = httpHandler(listErrorsOperation, async () => ok(registry));
