import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import type { Trip } from '../domain/trip.ts';
import { createTripActiveGuard } from './trip-active-guard.ts';
import type { TripListFilter, TripWrite } from './trip-items.ts';
import { createTripOutbox } from './trip-outbox.ts';
import { createTripReads } from './trip-reads.ts';
import { createTripWrites } from './trip-writes.ts';

export {
  activeTripGuardKey,
  fromTripItem,
  pendingOutboxKey,
  type TripListFilter,
  type TripWrite,
  toTripItem,
  tripKey,
} from './trip-items.ts';

/**
 * Trips (the items: trip-items.ts), one module per access pattern: the reads (trip-reads.ts), the
 * trip's own versioned writes (trip-writes.ts), the start and end with the vehicle's active-trip
 * guard (trip-active-guard.ts), and the outbox with the sweep's list of pending ones
 * (trip-outbox.ts).
 */
export interface TripStore {
  create(trip: Trip): Promise<void>;
  get(fleetId: string, tripId: string): Promise<Trip | null>;
  /** Replaces the trip (outbox included) if it is still at `expectedVersion`. */
  save(trip: Trip, expectedVersion: number): Promise<TripWrite>;
  /**
   * Replaces the trip's state if it is still at `expectedVersion`, leaving its outbox as stored: for
   * a writer that is no party to the outbox (a GPS visit), which must neither drop pending work nor
   * bring back work already carried out.
   */
  saveState(trip: Trip, expectedVersion: number): Promise<TripWrite>;
  /** The start: the trip and the vehicle's active-trip guard together; the guard's trip when another holds it. */
  start(trip: Trip, expectedVersion: number): Promise<TripWrite | { activeTripId: string }>;
  /** The vehicle's active trip, as its guard names it (null: none). */
  activeTripOf(fleetId: string, vehicleId: string): Promise<string | null>;
  /** The end: the trip and the release of its guard together. */
  end(trip: Trip, expectedVersion: number): Promise<TripWrite>;
  /** Hard delete of a trip still at `expectedVersion` and planned. */
  delete(fleetId: string, tripId: string, expectedVersion: number): Promise<TripWrite>;
  /** Drops the carried-out outbox unless the trip moved on (then the next writer sees a newer one). */
  clearOutbox(trip: Trip): Promise<void>;
  /** Trips whose outbox has been waiting since before `beforeMs` (at most `limit`). */
  pendingOutboxes(beforeMs: number, limit: number): Promise<{ fleetId: string; tripId: string }[]>;
  /** Forgets a pending entry whose trip has no outbox (any more, or never had: a lost race). */
  forgetPendingOutbox(trip: Pick<Trip, 'fleetId' | 'id' | 'version'>): Promise<void>;
  list(
    fleetId: string,
    filter: TripListFilter,
    limit: number,
    cursor: string | undefined,
  ): Promise<Page<Trip>>;
}

/** The reads: a trip, and a fleet's trips. */
export type TripReader = Pick<TripStore, 'get' | 'list'>;

/**
 * The store's read side alone: GET /v1/trips and GET /v1/trips/{id} bundle none of the versioned
 * writes, the active-trip guard or the outbox (docs/cold-starts.md).
 */
export function createTripReader(
  client: DocumentClient,
  tableName: string,
  cursors: CursorCodec,
): TripReader {
  return createTripReads(client, tableName, cursors);
}

export function createTripStore(client: DocumentClient, tableName: string, cursors: CursorCodec): TripStore {
  return {
    ...createTripReads(client, tableName, cursors),
    ...createTripWrites(client, tableName),
    ...createTripActiveGuard(client, tableName),
    ...createTripOutbox(client, tableName),
  };
}
