import { sandboxBaseUrl } from '#shared/platform/config.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { advanceSandboxOperation } from '#shared/sandbox/api/operations.ts';
import { advanceResultResource } from '#shared/sandbox/api/serializers.ts';
import { advanceSandbox, assertSandboxStage } from '#shared/sandbox/usecases/sandbox-tools.ts';
import { sandboxDeps } from '#shared/sandbox/wiring/sandbox.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(advanceSandboxOperation, async ({ body }, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  const view = await advanceSandbox(
    sandboxDeps(),
    actingFleetId(context),
    body.minutes,
    context.remainingTimeMs,
  );
  return ok(advanceResultResource(view, context.clock.now()));
});
