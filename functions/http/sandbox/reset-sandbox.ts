import { resetSandboxRoute } from '../../../shared/api/routes/sandbox.ts';
import { resetActionResource } from '../../../shared/api/serializers/sandbox.ts';
import { sandboxBaseUrl } from '../../../shared/platform/config.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { assertSandboxStage, resetSandbox } from '../../../shared/usecases/sandbox-tools.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { sandboxDeps } from '../../../shared/wiring/sandbox.ts';

export const handler = httpHandler(resetSandboxRoute, async (_input, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  return ok(resetActionResource(await resetSandbox(sandboxDeps(), actingFleetId(context))));
});
