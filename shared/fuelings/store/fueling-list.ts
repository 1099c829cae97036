import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type CursorCodec, MAX_LIST_READS, type Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
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
        for (const item of page.Items ?? []) data.push(fuelingOf(item) as Fueling);
        start = page.LastEvaluatedKey;
        if (!start) break;
      }
      return { data, next_cursor: start ? cursors.encode(scope, start) : null };
    },
  };
}
