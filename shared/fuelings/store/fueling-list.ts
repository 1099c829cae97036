import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryFilteredPage } from '#shared/table/query-pages.ts';
import { GSI1 } from '#shared/table/table.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import { type FuelingListFilter, fuelingOf, vehicleIndexKey } from './fueling-items.ts';

/** The list: a fleet's fuelings, or a vehicle's, newest first a page at a time. */
export function createFuelingList(client: DocumentClient, tableName: string, cursors?: CursorCodec) {
  return {
    async list(
      fleetId: string,
      filter: FuelingListFilter,
      limit: number,
      cursor?: string,
    ): Promise<Page<Fueling>> {
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
      // A filter can thin a page: read on until it is full (a sparse filter over a long range answers
      // what it found, with a cursor to go on).
      const query = {
        TableName: tableName,
        IndexName: keyed.IndexName,
        KeyConditionExpression: `${keyed.pkName} = :pk AND ${keyed.skName} BETWEEN :from AND :to`,
        FilterExpression: filters.join(' AND '),
        ExpressionAttributeNames: { '#source': 'source' },
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
      };
      return queryFilteredPage(
        client,
        cursors,
        { scope, cursor, limit },
        query,
        (item) => fuelingOf(item) as Fueling,
      );
    },
  };
}
