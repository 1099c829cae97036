import { BatchGetCommand, QueryCommand, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NO_FIGURES, type SavingsFigures } from '../domain/fuelings/savings.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';

export type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/**
 * The savings report's pre-aggregated rows: one per vehicle and UTC day
 * (`FLEET#…`/`SAVDAY#<YYYY-MM-DD>#veh_…`), counters in integer units changed with `ADD` in the same
 * transaction as the record that moves them (a fueling, a withdrawn or followed recommendation),
 * so a row is counted once however often its cause is retried. A report reads one key range per
 * day (or one item per day for a vehicle), never the fuelings themselves.
 */
export const savingsDayKey = (fleetId: string, day: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `SAVDAY#${day}#${vehicleId}`,
});

/** Kept a little beyond the longest period a report covers (366 days). */
export const SAVINGS_DAY_RETENTION_DAYS = 400;

/** Short attribute names: a report reads ~30,000 of these rows for 1,000 vehicles × 30 days. */
const ATTRIBUTES: Record<keyof SavingsFigures, string> = {
  fuelings: 'n',
  milliGallons: 'g',
  pricedMilliGallons: 'pg',
  spendCents: 's',
  benchmarkCents: 'b',
  missedCents: 'm',
  recommendedStops: 'r',
  followedStops: 'f',
};

export interface SavingsDayRow {
  vehicleId: string;
  externalRef: string | null;
  day: string;
  figures: SavingsFigures;
}

/** The transaction item that adds `delta` to a vehicle's day (creating the row on first use). */
export function addToSavingsDay(
  tableName: string,
  fleetId: string,
  day: string,
  vehicleId: string,
  delta: Partial<SavingsFigures>,
  externalRef: string | null = null,
): TransactItem {
  const adds: string[] = [];
  const values: Record<string, unknown> = {
    ':v': vehicleId,
    ':exp': ttlEpochSeconds(Date.parse(`${day}T00:00:00Z`) + SAVINGS_DAY_RETENTION_DAYS * 86_400_000),
  };
  for (const [key, attribute] of Object.entries(ATTRIBUTES) as [keyof SavingsFigures, string][]) {
    const value = delta[key];
    if (!value) continue;
    adds.push(`${attribute} :${attribute}`);
    values[`:${attribute}`] = value;
  }
  const sets = ['v = :v', 'expires_at = :exp'];
  if (externalRef !== null) {
    sets.push('xr = :xr');
    values[':xr'] = externalRef;
  }
  return {
    Update: {
      TableName: tableName,
      Key: savingsDayKey(fleetId, day, vehicleId),
      UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
      ExpressionAttributeValues: values,
    },
  };
}

function rowOf(item: Record<string, unknown>): SavingsDayRow {
  const figures = { ...NO_FIGURES };
  for (const [key, attribute] of Object.entries(ATTRIBUTES) as [keyof SavingsFigures, string][]) {
    figures[key] = Number(item[attribute] ?? 0);
  }
  return {
    vehicleId: item.v as string,
    externalRef: (item.xr as string | undefined) ?? null,
    day: (item.sk as string).slice('SAVDAY#'.length, 'SAVDAY#'.length + 10),
    figures,
  };
}

export interface SavingsDayStore {
  /** Every vehicle's rows of these days (one key range per day, read in parallel). */
  fleetDays(fleetId: string, days: readonly string[]): Promise<SavingsDayRow[]>;
  /** One vehicle's rows of these days. */
  vehicleDays(fleetId: string, vehicleId: string, days: readonly string[]): Promise<SavingsDayRow[]>;
}

/** Parallel day reads, bounded so a 366-day report does not open hundreds of requests at once. */
const DAY_READ_CONCURRENCY = 16;

export function createSavingsDayStore(client: DocumentClient, tableName: string): SavingsDayStore {
  const readDay = async (fleetId: string, day: string): Promise<SavingsDayRow[]> => {
    const rows: SavingsDayRow[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)',
          ExpressionAttributeValues: { ':pk': `FLEET#${fleetId}`, ':day': `SAVDAY#${day}#` },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) rows.push(rowOf(item));
      start = page.LastEvaluatedKey;
    } while (start);
    return rows;
  };

  return {
    async fleetDays(fleetId, days) {
      const rows: SavingsDayRow[] = [];
      let next = 0;
      const worker = async () => {
        while (next < days.length) {
          const day = days[next++] as string;
          rows.push(...(await readDay(fleetId, day)));
        }
      };
      await Promise.all(Array.from({ length: Math.min(DAY_READ_CONCURRENCY, days.length) }, worker));
      return rows;
    },
    async vehicleDays(fleetId, vehicleId, days) {
      const rows: SavingsDayRow[] = [];
      for (let i = 0; i < days.length; i += 100) {
        let keys: Record<string, unknown>[] = days
          .slice(i, i + 100)
          .map((day) => savingsDayKey(fleetId, day, vehicleId));
        for (let attempt = 0; keys.length > 0 && attempt < 8; attempt++) {
          const { Responses, UnprocessedKeys } = await client.send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } }),
          );
          for (const item of Responses?.[tableName] ?? []) rows.push(rowOf(item));
          keys = (UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
          if (keys.length) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
        }
        if (keys.length) throw new Error('savings days: keys left unprocessed after retries');
      }
      return rows;
    },
  };
}
