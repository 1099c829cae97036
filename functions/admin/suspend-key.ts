import { suspendKeyRoute } from '../../shared/api/admin-routes.ts';
import { apiKeyResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { setKeyStatusById } from '../../shared/usecases/operator-keys.ts';
import { keyDeps } from '../../shared/wiring/access.ts';
import { adminHandler } from '../../shared/wiring/admin.ts';

export const handler = adminHandler(suspendKeyRoute, async ({ params }, { operator }) =>
  ok(apiKeyResource(await setKeyStatusById(keyDeps(), operator.id, params.id, 'suspended', null))),
);
