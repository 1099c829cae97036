import { sandboxBaseUrl } from '#shared/platform/config.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { getSandboxSimulationOperation } from '#shared/sandbox/api/operations.ts';
import { simulationResource } from '#shared/sandbox/api/serializers.ts';
import { assertSandboxStage, sandboxSnapshot } from '#shared/sandbox/usecases/sandbox-tools.ts';
import { sandboxDeps } from '#shared/sandbox/wiring/sandbox.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getSandboxSimulationOperation, async (_input, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  return ok(
    simulationResource(await sandboxSnapshot(sandboxDeps(), actingFleetId(context)), context.clock.now()),
  );
});
