import { getMeOperation } from '#shared/accounts/api/operations.ts';
import { meResource } from '#shared/accounts/api/serializers.ts';
import { describeAccount } from '#shared/accounts/usecases/account.ts';
import { accountDeps } from '#shared/accounts/wiring/account.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getMeOperation, async (_input, context) =>
  ok(meResource(await describeAccount(accountDeps(), actingPrincipal(context), context.clock.now()))),
);
