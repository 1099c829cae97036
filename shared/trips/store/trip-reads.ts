import { GetCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryFilteredPage } from '#shared/table/query-pages.ts';
import { GSI1 } from '#shared/table/table.ts';
import type { Trip } from '../domain/trip.ts';
import { fromTripItem, listIndexKey, type TripListFilter, tripKey } from './trip-items.ts';

/** The reads: a trip by its id, and a fleet's trips a page at a time. */
export function createTripReads(client: DocumentClient, tableName: string, cursors: CursorCodec) {
  return {
    async get(fleetId: string, tripId: string): Promise<Trip | null> {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: tripKey(fleetId, tripId) }),
      );
      return Item ? fromTripItem(Item) : null;
    },

    async list(
      fleetId: string,
      filter: TripListFilter,
      limit: number,
      cursor: string | undefined,
    ): Promise<Page<Trip>> {
      const scope = `trips:${fleetId}:${filter.status ?? ''}:${filter.vehicleId ?? ''}:${filter.fromMs ?? ''}:${filter.toMs ?? ''}`;
      const names: Record<string, string> = {};
      const values: Record<string, NativeAttributeValue> = { ':pk': listIndexKey(fleetId) };
      // The range bounds: `from` inclusive, `to` inclusive (every id sorts after the '#').
      values[':from'] = filter.fromMs === undefined ? '0' : new Date(filter.fromMs).toISOString();
      values[':to'] = filter.toMs === undefined ? '~' : `${new Date(filter.toMs).toISOString()}#~`;
      const filters: string[] = [];
      if (filter.status) {
        names['#status'] = 'status';
        values[':status'] = filter.status;
        filters.push('#status = :status');
      }
      if (filter.vehicleId) {
        values[':vehicle'] = filter.vehicleId;
        filters.push('vehicle_id = :vehicle');
      }
      // Limit is evaluated before the filter, so a page never holds more than asked.
      const query = {
        TableName: tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      };
      return queryFilteredPage(client, cursors, { scope, cursor, limit }, query, fromTripItem);
    },
  };
}
