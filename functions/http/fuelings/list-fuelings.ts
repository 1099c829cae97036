import { listFuelingsRoute } from '../../../shared/api/routes/fuelings.ts';
import { pageResource } from '../../../shared/api/serializers/common.ts';
import { fuelingResource } from '../../../shared/api/serializers/fuelings.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listFuelings } from '../../../shared/usecases/fuelings.ts';
import { listFuelingsDeps } from '../../../shared/wiring/fuelings.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(listFuelingsRoute, async ({ query }, context) =>
  ok(pageResource(await listFuelings(listFuelingsDeps(), actingFleetId(context), query), fuelingResource)),
);
