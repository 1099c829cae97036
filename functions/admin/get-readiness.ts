import { getReadinessRoute } from '../../shared/api/admin-routes.ts';
import { readinessResource } from '../../shared/api/serializers/admin.ts';
import { ok } from '../../shared/platform/http/types.ts';
import { readReadiness } from '../../shared/usecases/readiness.ts';
import { adminHandler } from '../../shared/wiring/admin.ts';
import { readinessDeps } from '../../shared/wiring/catalog-readiness.ts';

export const handler = adminHandler(getReadinessRoute, async () =>
  ok(readinessResource(await readReadiness(readinessDeps()))),
);
