import { revokeKeyAsOperatorOperation } from '#shared/admin/api/operations.ts';
import { apiKeyResource } from '#shared/admin/api/serializers.ts';
import { setKeyStatusById } from '#shared/admin/usecases/operator-keys.ts';
import { adminHandler } from '#shared/admin/wiring/admin.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import { ok } from '#shared/platform/http/types.ts';

export const handler = adminHandler(revokeKeyAsOperatorOperation, async ({ params, body }, { operator }) =>
  ok(apiKeyResource(await setKeyStatusById(keyDeps(), operator.id, params.id, 'revoked', body.reason))),
);
