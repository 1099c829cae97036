import { BatchWriteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll } from '#shared/table/query-pages.ts';
import { isConditionFailure } from '#shared/table/transactions.ts';
import { unitHash } from '../domain/price-model.ts';
import type { Station } from '../domain/station.ts';

/**
 * An imported catalog is written under its own version and only then made current by one Put of
 * the pointer, so readers see the old catalog or the new one, never half of one. Stations spread
 * over shards so a cold start loads them with parallel Queries.
 */
export const CATALOG_POINTER_KEY = { pk: 'CATALOG#stations', sk: 'CURRENT' };
/** The outcome of the latest price file import, published or refused (the readiness report reads it). */
export const LAST_PRICE_IMPORT_KEY = { pk: 'CATALOG#stations', sk: 'LAST_IMPORT' };
/**
 * The outcome of the latest dry run, kept apart so that trying a file neither hides a real refusal
 * nor makes the stage look stuck on a file nobody meant to publish.
 */
export const LAST_PRICE_DRY_RUN_KEY = { pk: 'CATALOG#stations', sk: 'LAST_DRY_RUN' };
export const CATALOG_SHARDS = 8;

const shardOf = (stationId: string) => Math.floor(((unitHash(stationId) + 1) / 2) * CATALOG_SHARDS);
export const stationItemKey = (version: string, stationId: string) => ({
  pk: `CATALOG#${version}#${shardOf(stationId)}`,
  sk: `STN#${stationId}`,
});

export interface CatalogPointer {
  version: string;
  count: number;
  importedAt: string;
  source: string;
  /** The newest `price_updated_at` of the catalog's stations; null for catalogs imported without it. */
  newestPriceUpdatedAt: string | null;
}

/** One price file import as the readiness report and operators see it. */
export interface PriceImportRecord {
  /** The file: `s3://bucket/key` or the local path's base name. */
  source: string;
  /** `published`: the catalog is current; `refused`: a guard stopped it; `dry_run`: nothing written. */
  outcome: 'published' | 'refused' | 'dry_run';
  /** The catalog version it published (or would have). */
  version: string;
  at: string;
  acceptedRows: number;
  rejectedRows: number;
  /** Why it was refused, one sentence per guard; empty when published. */
  reasons: string[];
}

/**
 * The pointer was moved by another import between this one's read and its write: publishing would
 * silently replace a catalog the guards never compared the file with.
 */
export class CatalogMovedError extends Error {
  constructor(readonly expectedVersion: string | null) {
    super(`The catalog pointer no longer names ${expectedVersion ?? 'no catalog'}`);
    this.name = 'CatalogMovedError';
  }
}

export interface StationCatalogStore {
  current(): Promise<CatalogPointer | null>;
  /** The latest real import (published or refused); dry runs are in {@link lastDryRun}. */
  lastImport(): Promise<PriceImportRecord | null>;
  recordImport(record: PriceImportRecord): Promise<void>;
  lastDryRun(): Promise<PriceImportRecord | null>;
  recordDryRun(record: PriceImportRecord): Promise<void>;
  load(version: string): Promise<Station[]>;
  /**
   * Writes every station, then moves the pointer, but only if it still names `expectedVersion`
   * (null: no catalog was imported yet); otherwise throws {@link CatalogMovedError}. `onProgress`
   * gets the count written so far.
   */
  publish(
    pointer: CatalogPointer,
    stations: Station[],
    expectedVersion: string | null,
    onProgress?: (written: number) => void,
  ): Promise<void>;
}

export function createStationCatalogStore(client: DocumentClient, tableName: string): StationCatalogStore {
  async function readRecord(key: typeof LAST_PRICE_IMPORT_KEY): Promise<PriceImportRecord | null> {
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: key }));
    if (!Item) return null;
    return {
      source: String(Item.source),
      outcome: Item.outcome as PriceImportRecord['outcome'],
      version: String(Item.version),
      at: String(Item.at),
      acceptedRows: Number(Item.accepted_rows),
      rejectedRows: Number(Item.rejected_rows),
      reasons: Array.isArray(Item.reasons) ? Item.reasons.map(String) : [],
    };
  }

  async function writeRecord(key: typeof LAST_PRICE_IMPORT_KEY, record: PriceImportRecord): Promise<void> {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...key,
          source: record.source,
          outcome: record.outcome,
          version: record.version,
          at: record.at,
          accepted_rows: record.acceptedRows,
          rejected_rows: record.rejectedRows,
          reasons: record.reasons,
        },
      }),
    );
  }

  return {
    async current() {
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: CATALOG_POINTER_KEY }));
      if (!Item) return null;
      return {
        version: String(Item.version),
        count: Number(Item.count),
        importedAt: String(Item.imported_at),
        source: String(Item.source),
        newestPriceUpdatedAt:
          typeof Item.newest_price_updated_at === 'string' ? Item.newest_price_updated_at : null,
      };
    },

    lastImport: () => readRecord(LAST_PRICE_IMPORT_KEY),
    recordImport: (record) => writeRecord(LAST_PRICE_IMPORT_KEY, record),
    lastDryRun: () => readRecord(LAST_PRICE_DRY_RUN_KEY),
    recordDryRun: (record) => writeRecord(LAST_PRICE_DRY_RUN_KEY, record),

    async load(version) {
      const shards = await Promise.all(
        Array.from({ length: CATALOG_SHARDS }, async (_, shard) => {
          const items = await queryAll(client, {
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `CATALOG#${version}#${shard}` },
          });
          return items.map((item) => item.station as Station);
        }),
      );
      // Shards come back in any order; a stable order keeps the spatial index deterministic.
      return shards.flat().sort((a, b) => a.id.localeCompare(b.id));
    },

    async publish(pointer, stations, expectedVersion, onProgress) {
      let written = 0;
      for (let i = 0; i < stations.length; i += 25) {
        let requests = stations.slice(i, i + 25).map((station) => ({
          PutRequest: { Item: { ...stationItemKey(pointer.version, station.id), station } },
        }));
        // BatchWriteItem may leave items unprocessed under throttling: back off and resend them.
        for (let attempt = 0; requests.length > 0; attempt++) {
          if (attempt > 8) throw new Error('DynamoDB kept throttling the catalog import; retry later');
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
          const { UnprocessedItems } = await client.send(
            new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
          );
          requests = (UnprocessedItems?.[tableName] ?? []) as typeof requests;
        }
        written += Math.min(25, stations.length - i);
        onProgress?.(written);
      }
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            // Only over the catalog this import read and compared the file with.
            ...(expectedVersion === null
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : {
                  ConditionExpression: 'attribute_not_exists(pk) OR version = :read',
                  ExpressionAttributeValues: { ':read': expectedVersion },
                }),
            Item: {
              ...CATALOG_POINTER_KEY,
              version: pointer.version,
              count: pointer.count,
              imported_at: pointer.importedAt,
              source: pointer.source,
              ...(pointer.newestPriceUpdatedAt
                ? { newest_price_updated_at: pointer.newestPriceUpdatedAt }
                : {}),
            },
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw new CatalogMovedError(expectedVersion);
        throw error;
      }
    },
  };
}
