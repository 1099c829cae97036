import { recordFuelingsRoute } from '../../../shared/api/routes/fuelings.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { recordFuelings } from '../../../shared/usecases/fuelings.ts';
import { recordFuelingsDeps } from '../../../shared/wiring/fueling-batches.ts';
import { idempotentHttpHandler } from '../../../shared/wiring/idempotent-http.ts';

export const handler = idempotentHttpHandler(recordFuelingsRoute, async ({ body }, context) =>
  ok(await recordFuelings(recordFuelingsDeps(), actingFleetId(context), body.fuelings)),
);
