import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll } from '#shared/table/query-pages.ts';
import { GSI1 } from '#shared/table/table.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { OutboxEvent } from '#shared/tracking/domain/outbox.ts';
import { readVehicleFillGuard } from './fueling-fill-guard.ts';
import {
  cardRefGuardKey,
  type FuelingRef,
  fuelingKey,
  fuelingOf,
  type VehicleFillGuard,
  vehicleIndexKey,
} from './fueling-items.ts';

/**
 * The reads of one fill's path (fueling-records use case): a fueling and the event it announces, a
 * card reference's fueling, the vehicle's fill guard, and its fuelings over a time window.
 */
export function createFuelingReads(client: DocumentClient, tableName: string) {
  return {
    async recordedForCardRef(
      fleetId: string,
      ref: string,
    ): Promise<{ id: string; fueledAt: string | null } | null> {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: cardRefGuardKey(fleetId, ref), ConsistentRead: true }),
      );
      if (!Item) return null;
      return { id: Item.fueling_id as string, fueledAt: (Item.fueled_at as string | undefined) ?? null };
    },

    vehicleGuard(fleetId: string, vehicleId: string): Promise<VehicleFillGuard> {
      return readVehicleFillGuard(client, tableName, fleetId, vehicleId);
    },

    async get(fleetId: string, ref: FuelingRef): Promise<Fueling | null> {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: fuelingKey(fleetId, ref), ConsistentRead: true }),
      );
      return fuelingOf(Item);
    },

    async announcementOf(fleetId: string, fueling: FuelingRef): Promise<OutboxEvent | null> {
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

    async ofVehicleBetween(fleetId: string, vehicleId: string, from: string, to: string): Promise<Fueling[]> {
      const items = await queryAll(client, {
        TableName: tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': vehicleIndexKey(fleetId, vehicleId),
          ':from': `FUELING#${from}`,
          ':to': `FUELING#${to}~`,
        },
      });
      return items.map((item) => fuelingOf(item) as Fueling);
    },
  };
}
