import { setSandboxScenarioRoute } from '../../../shared/api/routes/sandbox.ts';
import { scenarioActionResource } from '../../../shared/api/serializers/sandbox.ts';
import { sandboxBaseUrl } from '../../../shared/platform/config.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { assertSandboxStage, scheduleSandboxScenario } from '../../../shared/usecases/sandbox-tools.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { sandboxDeps } from '../../../shared/wiring/sandbox.ts';

export const handler = httpHandler(setSandboxScenarioRoute, async ({ params, body }, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  const action = await scheduleSandboxScenario(
    sandboxDeps(),
    actingFleetId(context),
    params.id,
    body.scenario,
  );
  return { status: 202, body: scenarioActionResource(action) };
});
