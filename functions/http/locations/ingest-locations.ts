import { ingestLocationsRoute } from '../../../shared/api/routes/locations.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { ingestLocations } from '../../../shared/usecases/locations.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { ingestDeps } from '../../../shared/wiring/locations.ts';

export const handler = httpHandler(ingestLocationsRoute, async ({ body }, context) =>
  ok(await ingestLocations(ingestDeps(), actingFleetId(context), body.locations)),
);
