import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll, sortKeyPrefix } from '#shared/table/query-pages.ts';
import type { StoredTaxRate } from '../domain/rate-table.ts';

/**
 * Operators' state diesel tax rows, in the control table beside the plans: one table for both
 * stages, so the sandbox prices with the same rates as production. One partition holds them all
 * (49 jurisdictions, a few rows a year each), read whole with one strongly consistent Query.
 */
const PARTITION = 'FUELTAX#RATES';
export const fuelTaxRateKey = (state: string, effectiveFrom: string) => ({
  pk: PARTITION,
  sk: `RATE#${state}#${effectiveFrom}`,
});

interface FuelTaxRateItem {
  pk: string;
  sk: string;
  state: string;
  usd_per_gallon: number;
  effective_from: string;
  updated_at: string;
  updated_by: string;
}

export interface FuelTaxRateStore {
  /** Stores the row for its state and quarter; answers the row it replaced, if any. */
  put(row: StoredTaxRate): Promise<StoredTaxRate | null>;
  /** Every stored row. */
  list(): Promise<StoredTaxRate[]>;
}

export function createFuelTaxRateStore(client: DocumentClient, tableName: string): FuelTaxRateStore {
  return {
    async put(row) {
      const item: FuelTaxRateItem = {
        ...fuelTaxRateKey(row.state, row.effectiveFrom),
        state: row.state,
        usd_per_gallon: row.usdPerGallon,
        effective_from: row.effectiveFrom,
        updated_at: row.updatedAt,
        updated_by: row.updatedBy,
      };
      const { Attributes } = await client.send(
        new PutCommand({ TableName: tableName, Item: item, ReturnValues: 'ALL_OLD' }),
      );
      return Attributes ? fromItem(Attributes as FuelTaxRateItem) : null;
    },
    async list() {
      const items = await queryAll(client, {
        TableName: tableName,
        ...sortKeyPrefix(PARTITION, 'RATE#'),
        ConsistentRead: true,
      });
      return items.map((item) => fromItem(item as FuelTaxRateItem));
    },
  };
}

function fromItem(item: FuelTaxRateItem): StoredTaxRate {
  return {
    state: item.state,
    usdPerGallon: Number(item.usd_per_gallon),
    effectiveFrom: item.effective_from,
    updatedAt: item.updated_at,
    updatedBy: item.updated_by,
  };
}
