import { sandboxBaseUrl } from '#shared/platform/config.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { setSandboxScenarioOperation } from '#shared/sandbox/api/operations.ts';
import { scenarioActionResource } from '#shared/sandbox/api/serializers.ts';
import { assertSandboxStage, scheduleSandboxScenario } from '#shared/sandbox/usecases/sandbox-tools.ts';
import { sandboxDeps } from '#shared/sandbox/wiring/sandbox.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(setSandboxScenarioOperation, async ({ params, body }, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  const action = await scheduleSandboxScenario(
    sandboxDeps(),
    actingFleetId(context),
    params.id,
    body.scenario,
  );
  return { status: 202, body: scenarioActionResource(action) };
});
