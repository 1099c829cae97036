import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { stationRepositories } from '../../../shared/store/station-repositories.ts';
import { nearbyStations } from '../../../shared/usecases/stations.ts';

export const handler = createHttpHandler(routes.listNearbyStations, async ({ query }, context) => {
  const { plans, counters } = repositories();
  const { catalog, fuelDiscounts } = stationRepositories();
  const principal = context.principal;
  if (!principal) throw new Error('Station query reached without a key');
  const result = await nearbyStations(
    { catalog, discounts: fuelDiscounts, plan: (name) => plans.get(name), counters, now: context.clock.now },
    principal,
    actingFleetId(context),
    query,
  );
  return ok(result);
});
