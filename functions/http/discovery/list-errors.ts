import { listErrorsRoute } from '../../../shared/api/routes/discovery.ts';
import { errorRegistryResource } from '../../../shared/api/serializers/errors.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

const registry = errorRegistryResource();

export const handler = httpHandler(listErrorsRoute, async () => ok(registry));
