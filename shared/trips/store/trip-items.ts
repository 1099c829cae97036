import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, isTransactionConflict } from '#shared/table/transactions.ts';
import type { Trip, TripStatus } from '../domain/trip.ts';

export type Item = Record<string, NativeAttributeValue>;

/**
 * Trips live in their fleet's partition (`FLEET#flt_…` / `TRIP#trip_…`), so another fleet's id is
 * simply not found. gsi1 lists a fleet's trips by planned start (`FLEET#flt_…#TRIPS` /
 * `<planned_start_at>#trip_…`), so `from`/`to` are a key range; `status` and `vehicle_id` filter
 * that range. One active trip per vehicle is held by a guard item (`ACTIVETRIP#veh_…`, naming the
 * trip) written in the same transaction as the start and deleted with the end: of two concurrent
 * starts, one loses on the guard's condition and writes nothing.
 */
export const tripKey = (fleetId: string, tripId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `TRIP#${tripId}`,
});
export const activeTripGuardKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `ACTIVETRIP#${vehicleId}`,
});
/**
 * A trip with follow-up work still to carry out (an outbox) is also listed here, so the
 * every-minute sweep finds work a failed or crashed request left behind. Written before the commit
 * that fills the outbox (an early entry is harmless: the sweep checks the trip) and removed when the
 * outbox is cleared. One partition: only transitions write it, and entries live seconds.
 */
export const PENDING_OUTBOX_PK = 'TRIPOUTBOX';
export const pendingOutboxKey = (fleetId: string, tripId: string) => ({
  pk: PENDING_OUTBOX_PK,
  sk: `${fleetId}#${tripId}`,
});
export const listIndexKey = (fleetId: string) => `FLEET#${fleetId}#TRIPS`;
/** ISO text sorts as time; the id keeps trips with the same start apart. */
const listSortKey = (trip: Pick<Trip, 'plannedStartAtMs' | 'id'>) =>
  `${new Date(trip.plannedStartAtMs).toISOString()}#${trip.id}`;

export function toTripItem(trip: Trip): Item {
  const { outbox, ...rest } = trip;
  return {
    ...tripKey(trip.fleetId, trip.id),
    gsi1pk: listIndexKey(trip.fleetId),
    gsi1sk: listSortKey(trip),
    // Top-level copies for conditions and list filters.
    status: trip.status,
    vehicle_id: trip.vehicleId,
    version: trip.version,
    // As JSON text: a stored map comes back in DynamoDB's own key order, and the plan's comparison
    // (the route planner's words) must read back exactly as it was answered.
    trip: JSON.stringify(rest),
    ...(outbox ? { outbox: JSON.stringify(outbox) } : {}),
  };
}

export function fromTripItem(item: Item): Trip {
  const trip = JSON.parse(String(item.trip)) as Omit<Trip, 'outbox'>;
  return { ...trip, outbox: item.outbox ? (JSON.parse(String(item.outbox)) as Trip['outbox']) : null };
}

export interface TripListFilter {
  status?: TripStatus | undefined;
  vehicleId?: string | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** The outcome of a conditional write: stored, or another writer got there first. */
export type TripWrite = 'stored' | 'lost_race';

/** A conditional write that failed its condition (or met another in flight) lost a race; anything else is thrown. */
export const lostRaceOr = (error: unknown): TripWrite => {
  if (isConditionFailure(error) || isTransactionConflict(error)) return 'lost_race';
  throw error;
};
