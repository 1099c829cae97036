import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '#shared/table/batch-get.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { GSI2 } from '#shared/table/table.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';

/**
 * The fleet's flagged purchases, newest first, for the savings report's exceptions: a reported
 * fueling whose verdict is `flagged` carries gsi2 keys (`FLEET#…#FLAGGED` /
 * `FUELING#<fueled_at>#veh_…#fuel_…`), a sparse keys-only index of the few purchases that
 * disagree with their truck, so listing them never reads the period's other fuelings.
 */
export const flaggedPartition = (fleetId: string) => `FLEET#${fleetId}#FLAGGED`;

/** The gsi2 keys a fueling item carries: only a flagged purchase has them. */
export function flaggedIndexKeys(
  fleetId: string,
  fueling: Pick<Fueling, 'id' | 'vehicleId' | 'fueledAt' | 'verification'>,
): { gsi2pk: string; gsi2sk: string } | Record<string, never> {
  if (fueling.verification?.status !== 'flagged') return {};
  return {
    gsi2pk: flaggedPartition(fleetId),
    gsi2sk: `FUELING#${fueling.fueledAt}#${fueling.vehicleId}#${fueling.id}`,
  };
}

export interface FlaggedPurchaseQuery {
  /** First and last UTC day (`YYYY-MM-DD`), both included. */
  fromDay: string;
  toDay: string;
  vehicleId?: string | undefined;
}

export interface FlaggedPurchaseReader {
  /** At most `limit` flagged purchases of the days, newest first. */
  newest(fleetId: string, query: FlaggedPurchaseQuery, limit: number): Promise<Fueling[]>;
}

/**
 * Index pages read at most: a keys-only page holds thousands of entries, so this is reached only
 * by a vehicle's report whose fleet flagged tens of thousands of purchases in the period.
 */
const MAX_INDEX_READS = 5;

const newestFirst = (a: Fueling, b: Fueling) =>
  b.fueledAt.localeCompare(a.fueledAt) || b.id.localeCompare(a.id);

export function createFlaggedPurchaseReader(
  client: DocumentClient,
  tableName: string,
): FlaggedPurchaseReader {
  return {
    async newest(fleetId, { fromDay, toDay, vehicleId }, limit) {
      const keys: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      for (let reads = 0; reads < MAX_INDEX_READS && keys.length < limit; reads++) {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: GSI2,
            KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
            // A vehicle's are picked from the fleet's by the id in the sort key (a key cannot be
            // filtered on by DynamoDB): keys-only pages hold thousands.
            ...(vehicleId ? {} : { Limit: limit - keys.length }),
            ExpressionAttributeValues: {
              ':pk': flaggedPartition(fleetId),
              ':from': `FUELING#${fromDay}`,
              // Past every time of the last day: '~' sorts after the timestamp's digits.
              ':to': `FUELING#${toDay}T~`,
            },
            ScanIndexForward: false,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) {
          if (vehicleId && !String(item.gsi2sk).includes(`#${vehicleId}#`)) continue;
          keys.push({ pk: item.pk, sk: item.sk });
        }
        start = page.LastEvaluatedKey;
        if (!start) break;
      }
      const items = await batchGetItems(client, tableName, keys.slice(0, limit), {
        what: 'flagged fueling keys',
      });
      return items
        .map((item) => item.fueling as Fueling)
        .filter((fueling) => fueling?.verification?.status === 'flagged')
        .sort(newestFirst);
    },
  };
}
