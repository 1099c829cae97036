import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { ingestLocationsOperation } from '#shared/tracking/api/operations.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(ingestLocationsOperation, async ({ body }, context) =>
  ok(await ingestLocations(ingestDeps(), actingFleetId(context), body.locations)),
);
