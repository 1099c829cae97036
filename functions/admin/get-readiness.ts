import { getReadinessOperation } from '#shared/admin/api/operations.ts';
import { readinessResource } from '#shared/admin/api/serializers.ts';
import { readReadiness } from '#shared/admin/usecases/readiness.ts';
import { adminHandler } from '#shared/admin/wiring/admin.ts';
import { ok } from '#shared/platform/http/types.ts';
import { readinessDeps } from '#shared/stations/wiring/catalog-readiness.ts';

export const handler = adminHandler(getReadinessOperation, async () =>
  ok(readinessResource(await readReadiness(readinessDeps()))),
);
