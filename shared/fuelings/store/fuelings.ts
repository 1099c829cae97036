import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import type { OutboxEvent } from '#shared/tracking/domain/outbox.ts';
import type {
  FuelingListFilter,
  FuelingRef,
  FuelingWrite,
  RecordOutcome,
  VehicleFillGuard,
} from './fueling-items.ts';
import { createFuelingList } from './fueling-list.ts';
import { createFuelingReads } from './fueling-reads.ts';
import { createFuelingRecording } from './fueling-recording.ts';
import { createFuelingVerdicts } from './fueling-verdicts.ts';

export {
  cardRefGuardKey,
  type FuelingListFilter,
  type FuelingRef,
  type FuelingWrite,
  fuelingKey,
  type RecordOutcome,
  toFuelingItem,
  type VehicleFillGuard,
} from './fueling-items.ts';
export { verdictChangeItems } from './fueling-verdicts.ts';

/**
 * Fuelings (the items: fueling-items.ts), one module per access pattern: the recording of a fill
 * (fueling-recording.ts), the reads of the fill's path (fueling-reads.ts), a re-checked verdict
 * (fueling-verdicts.ts) and the list (fueling-list.ts).
 */
export interface FuelingStore {
  /** Writes a fill and everything it changes in one transaction; refused whole on any condition. */
  record(fleetId: string, write: FuelingWrite): Promise<RecordOutcome>;
  /** The fueling a card reference was recorded under, if any (`fueledAt` null on older guards). */
  recordedForCardRef(fleetId: string, ref: string): Promise<{ id: string; fueledAt: string | null } | null>;
  /** The vehicle's fill guard (consistent read); version 0 before its first fill. */
  vehicleGuard(fleetId: string, vehicleId: string): Promise<VehicleFillGuard>;
  /** One fueling by where it is kept (consistent read). */
  get(fleetId: string, fueling: FuelingRef): Promise<Fueling | null>;
  /** The `fueling.matched` a recorded fill announces (consistent read), if any. */
  announcementOf(fleetId: string, fueling: FuelingRef): Promise<OutboxEvent | null>;
  /**
   * Writes a reported purchase's verdict after late breadcrumbs re-checked it, with what it moves
   * in the savings report (verdictChangeItems); nothing when the fueling is not on record (a
   * sandbox reset removed it) or already holds this verdict (the outbox ran again).
   */
  setVerification(fleetId: string, fueling: FuelingRef, verification: StoredVerification): Promise<void>;
  /** A vehicle's fuelings with `fueled_at` within [from, to] (both UTC timestamps). */
  ofVehicleBetween(fleetId: string, vehicleId: string, from: string, to: string): Promise<Fueling[]>;
  /** Newest first; detections merged into a reported fueling only when `source=detected` is asked. */
  list(fleetId: string, filter: FuelingListFilter, limit: number, cursor?: string): Promise<Page<Fueling>>;
}

/** The fuelings' list: all that GET /v1/fuelings needs of the store. */
export type FuelingLister = Pick<FuelingStore, 'list'>;

/**
 * The list alone (GET /v1/fuelings): its function bundles none of the recording transactions, the
 * merges or the savings-day rows (docs/cold-starts.md).
 */
export function createFuelingLister(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): FuelingLister {
  return createFuelingList(client, tableName, cursors);
}

export function createFuelingStore(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): FuelingStore {
  return {
    ...createFuelingList(client, tableName, cursors),
    ...createFuelingRecording(client, tableName),
    ...createFuelingReads(client, tableName),
    ...createFuelingVerdicts(client, tableName),
  };
}
