import { createHash } from 'node:crypto';
import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NO_FIGURES, type SavingsFigures } from '#shared/fuelings/domain/savings.ts';
import { batchGetItems } from '#shared/table/batch-get.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll } from '#shared/table/query-pages.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';

export type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/**
 * The savings report's pre-aggregated rows: per fleet, UTC day and shard of vehicles
 * (`FLEET#…`/`SAVDAY#<YYYY-MM-DD>#<00–15>`), a string set `c` of contributions, one element per
 * cause (`<veh_…>|<cause>|<figures in ORDER>|<external_ref>`: a fill, a fill absorbed by a merge, a
 * stop withdrawn due, a stop followed), each added with `ADD` in the same transaction as the record
 * it comes from. A set makes a repeated element a no-op, and a few large items read far faster than
 * one small item per vehicle and day (30 days × 16 items for a fleet-wide month, whatever the
 * fleet's size). The figures are integers (thousandths of a gallon, cents).
 */
export const SAVINGS_DAY_SHARDS = 16;

export const shardOf = (vehicleId: string) =>
  String((createHash('sha256').update(vehicleId).digest()[0] ?? 0) % SAVINGS_DAY_SHARDS).padStart(2, '0');

export const savingsDayKey = (fleetId: string, day: string, shard: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `SAVDAY#${day}#${shard}`,
});

/** Kept a little beyond the longest period a report covers (366 days). */
export const SAVINGS_DAY_RETENTION_DAYS = 400;

const ORDER: (keyof SavingsFigures)[] = [
  'fuelings',
  'milliGallons',
  'pricedMilliGallons',
  'spendCents',
  'benchmarkCents',
  'missedCents',
  'recommendedStops',
  'followedStops',
  // Appended: a shorter element lacks them, and they read as 0 — each chosen so that 0 is right
  // for a fill recorded without the counterfactual (SavingsFigures): its effective
  // spend is its spend, it claims no card or saving and is not in the saving's gallons.
  'creditedTaxCents',
  'cardCents',
  'routingCents',
  'counterfactualMilliGallons',
  'iftaFuelings',
  'pumpFuelings',
  'noGuidanceFuelings',
  'outsideWindowFuelings',
  'noPositionFuelings',
  'notAtRecommendedStationFuelings',
  'noStopDueFuelings',
  // Appended: read as 0 in older elements, whose fills are then unknown to the fuel program and
  // not among the purchases checked against the truck.
  'inProgramFuelings',
  'inProgramMilliGallons',
  'inProgramSpendCents',
  'offProgramFuelings',
  'offProgramMilliGallons',
  'offProgramSpendCents',
  'reportedFuelings',
  'verifiedFuelings',
  'unverifiedFuelings',
  'flaggedFuelings',
];

export interface SavingsContribution {
  day: string;
  vehicleId: string;
  /** Unique per contribution (a fueling id, `<stop id>:followed`, …): equal elements would merge. */
  cause: string;
  delta: Partial<SavingsFigures>;
  externalRef?: string | null;
}

export interface SavingsDayRow {
  vehicleId: string;
  externalRef: string | null;
  day: string;
  figures: SavingsFigures;
}

/**
 * A contribution as its set element. Short elements read faster: the cause as a 60-bit digest
 * (unique enough among one vehicle's contributions of a day), zeros left empty.
 */
function elementOf(contribution: SavingsContribution): string {
  const { vehicleId, cause, delta } = contribution;
  const digest = createHash('sha256').update(cause).digest('base64url').slice(0, 10);
  const numbers = ORDER.map((key) => (delta[key] ? String(delta[key]) : '')).join(',');
  return `${vehicleId}|${digest}|${numbers}|${contribution.externalRef ?? ''}`;
}

const hasFigures = (contribution: SavingsContribution) =>
  Object.values(contribution.delta).some((value) => value !== undefined && value !== 0);

/** The transaction item that adds one contribution to its vehicle's day. */
export function addToSavingsDay(
  tableName: string,
  fleetId: string,
  contribution: SavingsContribution,
): TransactItem {
  return addElements(tableName, fleetId, contribution.day, shardOf(contribution.vehicleId), [
    elementOf(contribution),
  ]);
}

/**
 * The transaction items that add several contributions: one per day item they fall on, since a
 * transaction may not touch one item twice (a fill and the stop it follows often share a day and,
 * being one vehicle's, always a shard). Contributions without figures are left out.
 */
export function addToSavingsDays(
  tableName: string,
  fleetId: string,
  contributions: readonly SavingsContribution[],
): TransactItem[] {
  const byItem = new Map<string, { day: string; shard: string; elements: string[] }>();
  for (const contribution of contributions) {
    if (!hasFigures(contribution)) continue;
    const shard = shardOf(contribution.vehicleId);
    const key = `${contribution.day}#${shard}`;
    const group = byItem.get(key) ?? { day: contribution.day, shard, elements: [] };
    group.elements.push(elementOf(contribution));
    byItem.set(key, group);
  }
  return [...byItem.values()].map(({ day, shard, elements }) =>
    addElements(tableName, fleetId, day, shard, elements),
  );
}

function addElements(
  tableName: string,
  fleetId: string,
  day: string,
  shard: string,
  elements: readonly string[],
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: savingsDayKey(fleetId, day, shard),
      UpdateExpression: 'ADD c :c SET expires_at = :exp',
      ExpressionAttributeValues: {
        ':c': new Set(elements),
        ':exp': ttlEpochSeconds(Date.parse(`${day}T00:00:00Z`) + SAVINGS_DAY_RETENTION_DAYS * 86_400_000),
      },
    },
  };
}

/** A day item's contributions summed per vehicle (of one vehicle only, when given). */
function rowsOf(item: Record<string, unknown>, onlyVehicle?: string): SavingsDayRow[] {
  const day = (item.sk as string).slice('SAVDAY#'.length, 'SAVDAY#'.length + 10);
  const rows = new Map<string, SavingsDayRow>();
  for (const element of (item.c as Set<string> | undefined) ?? []) {
    const first = element.indexOf('|');
    const vehicleId = element.slice(0, first);
    if (onlyVehicle && vehicleId !== onlyVehicle) continue;
    const second = element.indexOf('|', first + 1);
    const third = element.indexOf('|', second + 1);
    const numbers = element.slice(second + 1, third).split(',');
    const externalRef = element.slice(third + 1) || null;
    const row = rows.get(vehicleId) ?? { vehicleId, externalRef: null, day, figures: { ...NO_FIGURES } };
    for (const [i, key] of ORDER.entries()) row.figures[key] += Number(numbers[i] ?? 0);
    if (externalRef) row.externalRef = externalRef;
    rows.set(vehicleId, row);
  }
  return [...rows.values()];
}

export interface SavingsDayStore {
  /** Every vehicle's rows of these days. */
  fleetDays(fleetId: string, days: readonly string[]): Promise<SavingsDayRow[]>;
  /** One vehicle's rows of these days (its shard of each day only). */
  vehicleDays(fleetId: string, vehicleId: string, days: readonly string[]): Promise<SavingsDayRow[]>;
}

/** Parallel reads, bounded so a 366-day report does not open hundreds of requests at once. */
const READ_CONCURRENCY = 16;

export function createSavingsDayStore(client: DocumentClient, tableName: string): SavingsDayStore {
  const readDays = async (fleetId: string, from: string, to: string): Promise<Record<string, unknown>[]> => {
    return queryAll(client, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': `FLEET#${fleetId}`,
        ':from': `SAVDAY#${from}#`,
        ':to': `SAVDAY#${to}#~`,
      },
    });
  };

  return {
    async fleetDays(fleetId, days) {
      // Runs of days read in parallel: each item is up to 400 KB, so a page holds few of them.
      const runs: string[][] = [];
      const size = Math.max(1, Math.ceil(days.length / READ_CONCURRENCY));
      for (let i = 0; i < days.length; i += size) runs.push(days.slice(i, i + size));
      const pages = await Promise.all(
        runs.map((run) => readDays(fleetId, run[0] as string, run[run.length - 1] as string)),
      );
      return pages.flat().flatMap((item) => rowsOf(item));
    },
    async vehicleDays(fleetId, vehicleId, days) {
      const shard = shardOf(vehicleId);
      const keys = days.map((day) => savingsDayKey(fleetId, day, shard));
      const items = await batchGetItems(client, tableName, keys, { maxRounds: 8, what: 'savings day keys' });
      return items.flatMap((item) => rowsOf(item, vehicleId));
    },
  };
}
