import type { FollowWrite } from '#shared/guidance/store/recommended-stops.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { OutboxEvent } from '#shared/tracking/domain/outbox.ts';
import { flaggedIndexKeys } from './flagged-purchases.ts';

/**
 * A fueling (`FLEET#…`/`FUELING#<fueled_at>#fuel_…`): the fleet's fuelings by time in one key
 * range, a vehicle's through gsi1 (`FLEET#…#VEH#veh_…` / `FUELING#<fueled_at>#fuel_…`). `fueled_at`
 * is UTC with six fractional digits, so it sorts as text. Detected fuelings carry an id and a time
 * fixed by the rise, so a worker that detects it twice writes one record. A reported fueling's
 * `card_transaction_ref` is held unique per fleet by a guard item (`FUELREF#<ref>` → id) written in
 * the fueling's transaction. Top-level `source` and `linked` serve the list's filters.
 */
export const fuelingKey = (fleetId: string, fueling: Pick<Fueling, 'id' | 'fueledAt'>) => ({
  pk: `FLEET#${fleetId}`,
  sk: `FUELING#${fueling.fueledAt}#${fueling.id}`,
});
export const cardRefGuardKey = (fleetId: string, ref: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `FUELREF#${ref}`,
});
export const vehicleIndexKey = (fleetId: string, vehicleId: string) => `FLEET#${fleetId}#VEH#${vehicleId}`;

export function toFuelingItem(fleetId: string, fueling: Fueling) {
  return {
    ...fuelingKey(fleetId, fueling),
    gsi1pk: vehicleIndexKey(fleetId, fueling.vehicleId),
    gsi1sk: `FUELING#${fueling.fueledAt}#${fueling.id}`,
    ...flaggedIndexKeys(fleetId, fueling),
    source: fueling.source,
    ...(fueling.linkedFuelingId ? { linked: fueling.linkedFuelingId } : {}),
    fueling,
  };
}

/** The fueling a stored item holds (null: no item). */
export const fuelingOf = (item: Record<string, unknown> | undefined): Fueling | null =>
  (item?.fueling as Fueling | undefined) ?? null;

/** Why a fueling was not written: its card reference or its id was already on record. */
export type RecordOutcome =
  | { recorded: true }
  | { recorded: false; reason: 'duplicate_card_ref' | 'already_recorded' | 'changed' };

/** One fill's write: the fueling, what it links, follows and counts, all or nothing. */
export interface FuelingWrite {
  fueling: Fueling;
  /** A detection of the same fill, to link both ways (its figures leave the report). */
  mergeWith: Fueling | null;
  /** The recommended stop the fill follows, marked in the same transaction (followWrite). */
  follow?: FollowWrite | null;
  /** The stop a fill elsewhere passed over, counted as advice not followed (passOverWrite). */
  passOver?: FollowWrite | null;
  /** The unmatched report a matched detection joins, as it becomes: matched, priced again. */
  handedTo?: Fueling | null;
  /**
   * The `fueling.matched` this fill announces, kept on its record in the same transaction: a
   * retry that finds the fill already recorded announces it again under the same dedupe key, so
   * a crash or a failed event write between the transaction and the event loses nothing.
   */
  announce?: OutboxEvent | null;
  /** The vehicle's guard as read before judging the fill (see VehicleFillGuard). */
  guard?: VehicleFillGuard;
}

/** Where a recorded fill is kept: enough to read it back. */
export type FuelingRef = Pick<Fueling, 'id' | 'fueledAt'>;

/**
 * A vehicle's fill guard as read (consistently) before a fill is judged: its version, and the
 * fills written last. The fill's transaction bumps the version on condition it is unchanged, so of
 * two fills of one vehicle judged at once, one is refused, re-reads and sees the other.
 */
export interface VehicleFillGuard {
  version: number;
  recent: FuelingRef[];
}

export interface FuelingListFilter {
  vehicleId?: string | undefined;
  /** Inclusive bounds on `fueled_at` (UTC timestamps). */
  from?: string | undefined;
  to?: string | undefined;
  source?: 'reported' | 'detected' | undefined;
}
