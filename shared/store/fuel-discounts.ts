import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ChainDiscounts } from '../domain/stations/station.ts';
import type { DocumentClient } from './dynamo-client.ts';

/** A fleet's fuel-card discounts, cents per gallon by chain: one small item in the fleet's partition. */
export const fuelDiscountsKey = (fleetId: string) => ({ pk: `FLEET#${fleetId}`, sk: 'DISCOUNTS' });

export interface FuelDiscountStore {
  get(fleetId: string): Promise<ChainDiscounts>;
  put(fleetId: string, discounts: ChainDiscounts): Promise<void>;
}

export function createFuelDiscountStore(client: DocumentClient, tableName: string): FuelDiscountStore {
  return {
    async get(fleetId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: fuelDiscountsKey(fleetId) }),
      );
      return (Item?.cents_per_gallon as ChainDiscounts | undefined) ?? {};
    },
    async put(fleetId, discounts) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...fuelDiscountsKey(fleetId), cents_per_gallon: discounts },
        }),
      );
    },
  };
}
