import { listTripsRoute } from '../../../shared/api/routes/trips.ts';
import { pageResource } from '../../../shared/api/serializers/common.ts';
import { tripResource } from '../../../shared/api/serializers/trips.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listTrips } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripReadDeps } from '../../../shared/wiring/trip-store.ts';

export const handler = httpHandler(listTripsRoute, async ({ query }, context) => {
  const page = await listTrips(
    tripReadDeps(),
    actingFleetId(context),
    { status: query.status, vehicleRef: query.vehicle_id, from: query.from, to: query.to },
    query.limit,
    query.cursor,
  );
  const polyline = query.include === 'polyline';
  return ok(pageResource(page, (trip) => tripResource(trip, { polyline })));
});
