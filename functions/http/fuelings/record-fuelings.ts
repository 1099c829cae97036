import { recordFuelingsOperation } from '#shared/fuelings/api/operations.ts';
import { recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { recordFuelingsDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { idempotentHttpHandler } from '#shared/wiring/idempotent-http.ts';

export const handler = idempotentHttpHandler(recordFuelingsOperation, async ({ body }, context) =>
  ok(await recordFuelings(recordFuelingsDeps(), actingFleetId(context), body.fuelings)),
);
