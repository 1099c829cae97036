import { advanceSandboxRoute } from '../../../shared/api/routes/sandbox.ts';
import { advanceResultResource } from '../../../shared/api/serializers/sandbox.ts';
import { sandboxBaseUrl } from '../../../shared/platform/config.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { advanceSandbox, assertSandboxStage } from '../../../shared/usecases/sandbox-tools.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { sandboxDeps } from '../../../shared/wiring/sandbox.ts';

export const handler = httpHandler(advanceSandboxRoute, async ({ body }, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  const view = await advanceSandbox(
    sandboxDeps(),
    actingFleetId(context),
    body.minutes,
    context.remainingTimeMs,
  );
  return ok(advanceResultResource(view, context.clock.now()));
});
