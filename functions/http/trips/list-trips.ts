import { pageResource } from '#shared/api/common-serializers.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { listTripsOperation } from '#shared/trips/api/operations.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { listTrips } from '#shared/trips/usecases/trips.ts';
import { tripReadDeps } from '#shared/trips/wiring/trip-store.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listTripsOperation, async ({ query }, context) => {
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
