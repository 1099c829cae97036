import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { utcDay } from '../domain/fuelings/period.ts';
import {
  fuelingFigures,
  NO_FIGURES,
  type SavingsFigures,
  subtractFigures,
  verdictChangeFigures,
} from '../domain/fuelings/savings.ts';
import type { Fueling, StoredVerification } from '../domain/telematics/fueling-record.ts';
import type { OutboxEvent } from '../domain/tracking/outbox.ts';
import { type CursorCodec, MAX_LIST_READS, type Page } from './cursor.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { flaggedIndexKeys } from './flagged-purchases.ts';
import type { FollowWrite } from './recommended-stops.ts';
import { addToSavingsDays, type SavingsContribution, type TransactItem } from './savings-days.ts';
import { GSI1 } from './table.ts';
import { failedConditionIndexes, isTransactionConflict } from './transactions.ts';

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
/** Per vehicle: bumped by every fill's transaction, so fills of one vehicle recorded at once serialise. */
const vehicleGuardKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `FUELVEH#${vehicleId}`,
});
/** The vehicle's last fills written, kept on its guard: a retry reads them without waiting for gsi1. */
const RECENT_FILLS_KEPT = 10;
const vehicleIndexKey = (fleetId: string, vehicleId: string) => `FLEET#${fleetId}#VEH#${vehicleId}`;

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
  return {
    async list(fleetId, filter, limit, cursor) {
      if (!cursors) throw new Error('fueling list needs a cursor codec');
      const scope = `fuelings:${fleetId}:${filter.vehicleId ?? ''}:${filter.from ?? ''}:${filter.to ?? ''}:${filter.source ?? ''}`;
      const keyed = filter.vehicleId
        ? {
            IndexName: GSI1,
            pkName: 'gsi1pk',
            skName: 'gsi1sk',
            pk: vehicleIndexKey(fleetId, filter.vehicleId),
          }
        : { IndexName: undefined, pkName: 'pk', skName: 'sk', pk: `FLEET#${fleetId}` };
      const filters: string[] = [];
      const values: Record<string, unknown> = {
        ':pk': keyed.pk,
        ':from': `FUELING#${filter.from ?? ''}`,
        ':to': `FUELING#${filter.to ?? '9999'}~`,
      };
      if (filter.source) {
        filters.push('#source = :source');
        values[':source'] = filter.source;
      } else {
        // The default view shows each fill once: a detection merged into a reported fueling hides.
        filters.push('(#source = :reported OR attribute_not_exists(linked))');
        values[':reported'] = 'reported';
      }
      const data: Fueling[] = [];
      let start: Record<string, unknown> | undefined = cursor ? cursors.decode(scope, cursor) : undefined;
      // A filter can thin a page: keep reading until it is full, the range ends, or the reads are
      // spent (a sparse filter over a long range answers what it found, with a cursor to go on).
      for (let reads = 0; reads < MAX_LIST_READS && data.length < limit; reads++) {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: keyed.IndexName,
            KeyConditionExpression: `${keyed.pkName} = :pk AND ${keyed.skName} BETWEEN :from AND :to`,
            FilterExpression: filters.join(' AND '),
            ExpressionAttributeNames: { '#source': 'source' },
            ExpressionAttributeValues: values,
            ScanIndexForward: false,
            Limit: limit - data.length,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) data.push(item.fueling as Fueling);
        start = page.LastEvaluatedKey;
        if (!start) break;
      }
      return { data, next_cursor: start ? cursors.encode(scope, start) : null };
    },
  };
}

/**
 * A purchase's new verdict (late breadcrumbs re-checked it) as transaction items: the record's
 * verdict, conditional on the one it was judged from; its entry in the flagged index when it is
 * now flagged; and the change to its day's counts in the savings report, once (named by the
 * re-check).
 */
export function verdictChangeItems(
  tableName: string,
  fleetId: string,
  before: Fueling,
  verification: StoredVerification,
): TransactItem[] {
  const after: Fueling = { ...before, verification };
  const index = flaggedIndexKeys(fleetId, after);
  const sets = ['fueling.verification = :after', ...Object.keys(index).map((name) => `${name} = :${name}`)];
  const values: Record<string, unknown> = {
    ':after': verification,
    ...Object.fromEntries(Object.entries(index).map(([name, value]) => [`:${name}`, value])),
  };
  const names: Record<string, string> = {};
  let condition = 'attribute_exists(pk)';
  if (before.verification) {
    condition +=
      ' AND fueling.verification.#status = :status AND fueling.verification.checkedAt = :checkedAt AND fueling.verification.rechecked = :rechecked';
    names['#status'] = 'status';
    values[':status'] = before.verification.status;
    values[':checkedAt'] = before.verification.checkedAt;
    values[':rechecked'] = before.verification.rechecked;
  } else {
    condition += ' AND attribute_not_exists(fueling.verification)';
  }
  return [
    {
      Update: {
        TableName: tableName,
        Key: fuelingKey(fleetId, before),
        UpdateExpression: `SET ${sets.join(', ')}${'gsi2pk' in index ? '' : ' REMOVE gsi2pk, gsi2sk'}`,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      },
    },
    ...addToSavingsDays(tableName, fleetId, [
      {
        day: utcDay(Date.parse(before.fueledAt)),
        vehicleId: before.vehicleId,
        cause: `${before.id}:verdict:${verification.status}:${verification.checkedAt}`,
        delta: verdictChangeFigures(before, after),
        externalRef: before.externalRef ?? null,
      },
    ]),
  ];
}

/** The same verdict: an outbox carried out again writes it no second time. */
const sameVerdict = (a: StoredVerification, b: StoredVerification) =>
  a.status === b.status && a.checkedAt === b.checkedAt && a.rechecked === b.rechecked;

/** A re-checked verdict whose day item keeps being written at the same moment gives up after this many. */
const MAX_VERDICT_ATTEMPTS = 5;

export function createFuelingStore(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): FuelingStore {
  return {
    ...createFuelingLister(client, tableName, cursors),

    async record(fleetId, { fueling, mergeWith, follow, passOver, handedTo, announce, guard }) {
      const items: TransactItem[] = [
        {
          Put: {
            TableName: tableName,
            Item: { ...toFuelingItem(fleetId, fueling), ...(announce ? { matched_event: announce } : {}) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      const guardIndex = fueling.cardTransactionRef ? items.length : -1;
      if (fueling.cardTransactionRef) {
        items.push({
          Put: {
            TableName: tableName,
            Item: {
              ...cardRefGuardKey(fleetId, fueling.cardTransactionRef),
              fueling_id: fueling.id,
              fueled_at: fueling.fueledAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
      }
      if (mergeWith) {
        // A detection joining a reported fill confirms its gallons; a report absorbing a detection
        // only links it. Either way both records name each other.
        const confirms = mergeWith.source === 'reported' && fueling.source === 'detected';
        const sets = ['linked = :id', 'fueling.linkedFuelingId = :id'];
        const values: Record<string, unknown> = { ':id': fueling.id };
        if (confirms) {
          sets.push('fueling.detectedGallons = :g');
          values[':g'] = fueling.gallons;
        }
        // A matched fill joining an unmatched record of itself: that record was not unmatched either.
        if (fueling.stopId !== null && !mergeWith.stopId) {
          sets.push('fueling.unmatchedReason = :none');
          values[':none'] = null;
        }
        // A matched detection joining an unmatched report hands it the match (handedTo): the report
        // is the fill listed and counted, so it names the stop, missed nothing, and is priced
        // against the stop it followed.
        if (confirms && handedTo) {
          const match = {
            guidanceId: handedTo.guidanceId,
            stopId: handedTo.stopId,
            tripId: handedTo.tripId ?? null,
            tripStopId: handedTo.tripStopId ?? null,
            recommendedNetPrice: handedTo.recommendedNetPrice ?? null,
            stationId: handedTo.stationId,
            missedSavingsUsd: 0,
            passedOverStopId: null,
            effectivePrice: handedTo.effectivePrice ?? null,
            counterfactual: handedTo.counterfactual ?? null,
            cardSavingsUsd: handedTo.cardSavingsUsd ?? null,
            routingSavingsUsd: handedTo.routingSavingsUsd ?? null,
          };
          for (const [name, value] of Object.entries(match)) {
            sets.push(`fueling.${name} = :${name}`);
            values[`:${name}`] = value;
          }
        }
        items.push({
          Update: {
            TableName: tableName,
            Key: fuelingKey(fleetId, mergeWith),
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(linked)',
            ExpressionAttributeValues: values,
          },
        });
      }
      // The report counts each fill once: a detection merged into a reported fueling counts
      // nothing (fuelingFigures), and one a report absorbs stops counting on its own day.
      // Elements are named by this new record (unique): its own, and the absorbed detection's.
      const contributions: SavingsContribution[] = [];
      const count = (of: Fueling, cause: string, delta: SavingsFigures) =>
        contributions.push({
          day: utcDay(Date.parse(of.fueledAt)),
          vehicleId: fueling.vehicleId,
          cause,
          delta,
          externalRef: fueling.externalRef ?? mergeWith?.externalRef ?? null,
        });
      count(fueling, fueling.id, fuelingFigures(fueling));
      if (mergeWith?.source === 'detected') {
        count(mergeWith, `${fueling.id}:absorbed`, subtractFigures(NO_FIGURES, fuelingFigures(mergeWith)));
      }
      if (mergeWith?.source === 'reported' && handedTo) {
        // The report it matches missed nothing after all, and is priced against the stop it
        // followed: its day takes the difference.
        count(
          mergeWith,
          `${fueling.id}:matched`,
          subtractFigures(fuelingFigures(handedTo), fuelingFigures(mergeWith)),
        );
      }
      for (const stopWrite of [follow, passOver]) {
        if (!stopWrite) continue;
        items.push(stopWrite.update);
        contributions.push(...stopWrite.contributions);
      }
      // One update per day item: the fill, what it absorbs and the stop it follows often share one.
      items.push(...addToSavingsDays(tableName, fleetId, contributions));
      if (guard) {
        const recent = [{ id: fueling.id, fueledAt: fueling.fueledAt }, ...guard.recent].slice(
          0,
          RECENT_FILLS_KEPT,
        );
        items.push({
          Put: {
            TableName: tableName,
            Item: { ...vehicleGuardKey(fleetId, fueling.vehicleId), version: guard.version + 1, recent },
            ConditionExpression: guard.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
            ...(guard.version === 0 ? {} : { ExpressionAttributeValues: { ':version': guard.version } }),
          },
        });
      }
      try {
        await client.send(new TransactWriteCommand({ TransactItems: items }));
        return { recorded: true };
      } catch (error) {
        const failed = failedConditionIndexes(error);
        if (failed.includes(0)) return { recorded: false, reason: 'already_recorded' };
        if (failed.includes(guardIndex)) return { recorded: false, reason: 'duplicate_card_ref' };
        if (failed.length > 0 || isTransactionConflict(error)) return { recorded: false, reason: 'changed' };
        throw error;
      }
    },

    async recordedForCardRef(fleetId, ref) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: cardRefGuardKey(fleetId, ref), ConsistentRead: true }),
      );
      if (!Item) return null;
      return { id: Item.fueling_id as string, fueledAt: (Item.fueled_at as string | undefined) ?? null };
    },

    async vehicleGuard(fleetId, vehicleId) {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: vehicleGuardKey(fleetId, vehicleId),
          ConsistentRead: true,
        }),
      );
      return {
        version: (Item?.version as number | undefined) ?? 0,
        recent: (Item?.recent as FuelingRef[] | undefined) ?? [],
      };
    },

    async get(fleetId, ref) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: fuelingKey(fleetId, ref), ConsistentRead: true }),
      );
      return (Item?.fueling as Fueling | undefined) ?? null;
    },

    async announcementOf(fleetId, fueling) {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: fuelingKey(fleetId, fueling),
          ProjectionExpression: 'matched_event',
          ConsistentRead: true,
        }),
      );
      return (Item?.matched_event as OutboxEvent | undefined) ?? null;
    },

    async setVerification(fleetId, ref, verification) {
      for (let attempt = 1; ; attempt++) {
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: fuelingKey(fleetId, ref), ConsistentRead: true }),
        );
        const before = (Item?.fueling as Fueling | undefined) ?? null;
        // Gone (a sandbox reset removed it), or written already by an earlier run of the outbox.
        if (!before || (before.verification && sameVerdict(before.verification, verification))) return;
        try {
          await client.send(
            new TransactWriteCommand({
              TransactItems: verdictChangeItems(tableName, fleetId, before, verification),
            }),
          );
          return;
        } catch (error) {
          // Another verdict was written since the read: it stands, this one is not applied on top.
          if (failedConditionIndexes(error).includes(0)) return;
          // The day's report item is shared with the fleet's other fills: pause and try again.
          if (!isTransactionConflict(error) || attempt >= MAX_VERDICT_ATTEMPTS) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
        }
      }
    },

    async ofVehicleBetween(fleetId, vehicleId, from, to) {
      const found: Fueling[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: GSI1,
            KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
            ExpressionAttributeValues: {
              ':pk': vehicleIndexKey(fleetId, vehicleId),
              ':from': `FUELING#${from}`,
              ':to': `FUELING#${to}~`,
            },
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) found.push(item.fueling as Fueling);
        start = page.LastEvaluatedKey;
      } while (start);
      return found;
    },
  };
}
