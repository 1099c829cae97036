import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { stationRepositories } from '../../../shared/store/station-repositories.ts';
import { stationsAlongRoute } from '../../../shared/usecases/stations.ts';

export const handler = createHttpHandler(routes.listStationsAlongRoute, async ({ body }, context) => {
  const { counters } = repositories();
  const { catalog, fuelDiscounts, router } = stationRepositories();
  const principal = context.principal;
  if (!principal) throw new Error('Station query reached without a key');
  const result = await stationsAlongRoute(
    { catalog, discounts: fuelDiscounts, counters, router, now: context.clock.now },
    principal,
    actingFleetId(context),
    body,
  );
  return ok(result);
});
