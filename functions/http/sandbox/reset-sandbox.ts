import { sandboxBaseUrl } from '#shared/platform/config.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { resetSandboxOperation } from '#shared/sandbox/api/operations.ts';
import { resetActionResource } from '#shared/sandbox/api/serializers.ts';
import { assertSandboxStage, resetSandbox } from '#shared/sandbox/usecases/sandbox-tools.ts';
import { sandboxDeps } from '#shared/sandbox/wiring/sandbox.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(resetSandboxOperation, async (_input, context) => {
  assertSandboxStage(context.stage, sandboxBaseUrl());
  return ok(resetActionResource(await resetSandbox(sandboxDeps(), actingFleetId(context))));
});
