import { pageResource } from '#shared/api/common-serializers.ts';
import { listFuelingsOperation } from '#shared/fuelings/api/operations.ts';
import { fuelingResource } from '#shared/fuelings/api/serializers.ts';
import { listFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { listFuelingsDeps } from '#shared/fuelings/wiring/fuelings.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listFuelingsOperation, async ({ query }, context) =>
  ok(pageResource(await listFuelings(listFuelingsDeps(), actingFleetId(context), query), fuelingResource)),
);
