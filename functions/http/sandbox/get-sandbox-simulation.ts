import { getSandboxSimulationRoute } from '../../../shared/api/routes/sandbox.ts';
import { simulationResource } from '../../../shared/api/serializers/sandbox.ts';
import { sandboxBaseUrl } from '../../../shared/platform/config.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { assertSandboxStage, sandboxSnapshot } from '../../../shared/usecases/sandbox-tools.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { sandboxDeps } from '../../../shared/wiring/sandbox.ts';

export const handler = httpHandler(getSandboxSimulationRoute, async (_input, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  return ok(
    simulationResource(await sandboxSnapshot(sandboxDeps(), actingFleetId(context)), context.clock.now()),
  );
});
