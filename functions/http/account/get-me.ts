import { getMeRoute } from '../../../shared/api/routes/account.ts';
import { meResource } from '../../../shared/api/serializers/me.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { describeAccount } from '../../../shared/usecases/account.ts';
import { accountDeps } from '../../../shared/wiring/account.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(getMeRoute, async (_input, context) =>
  ok(meResource(await describeAccount(accountDeps(), actingPrincipal(context), context.clock.now()))),
);
