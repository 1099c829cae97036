import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import {
  fromItemFields,
  type ItemFields,
  type StoredFields,
  toItemFields,
} from '#shared/table/item-fields.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import type { CheckId, CheckStatus } from '../domain/checks.ts';
import type { Grade } from '../domain/score.ts';

/**
 * A fleet's daily health snapshot, `HEALTH#flt_…`/`SNAP#2026-11-23`, written by the snapshot job
 * (a second run the same day overwrites the day's snapshot with a fresher one). The history is a
 * range query over these, at most 90 small items.
 */
export const snapshotKey = (fleetId: string, day: string) => ({ pk: `HEALTH#${fleetId}`, sk: `SNAP#${day}` });

/** The history reaches back 90 days; a few more are kept so a day is never cut short by TTL. */
const SNAPSHOT_RETENTION_DAYS = 95;

export interface HealthSnapshot {
  fleetId: string;
  /** UTC day, `2026-11-23`. */
  day: string;
  checkedAt: string;
  score: number;
  grade: Grade;
  checks: Partial<Record<CheckId, CheckStatus>>;
  vehiclesActive: number;
  vehiclesReporting24h: number;
  breadcrumbs24h: number;
}

/** A snapshot's fields, each under its attribute. */
const SNAPSHOT_ATTRIBUTES = {
  fleetId: 'fleet_id',
  day: 'day',
  checkedAt: 'checked_at',
  score: 'score',
  grade: 'grade',
  checks: 'checks',
  vehiclesActive: 'vehicles_active',
  vehiclesReporting24h: 'vehicles_reporting_24h',
  breadcrumbs24h: 'breadcrumbs_24h',
} as const satisfies ItemFields<HealthSnapshot>;

/** A snapshot as its item holds it, until DynamoDB's TTL removes it at `expires_at`. */
export type SnapshotItem = StoredFields<HealthSnapshot, typeof SNAPSHOT_ATTRIBUTES> & {
  pk: string;
  sk: string;
  expires_at: number;
};

function toSnapshotItem(snapshot: HealthSnapshot): SnapshotItem {
  return {
    ...snapshotKey(snapshot.fleetId, snapshot.day),
    ...toItemFields(snapshot, SNAPSHOT_ATTRIBUTES),
    expires_at: ttlEpochSeconds(Date.parse(snapshot.day) + SNAPSHOT_RETENTION_DAYS * 86_400_000),
  };
}

/** Counts a snapshot lacks read as 0, checks as none. */
function fromSnapshotItem(item: Record<string, unknown>): HealthSnapshot {
  const snapshot = fromItemFields<HealthSnapshot>(item, SNAPSHOT_ATTRIBUTES);
  return {
    ...snapshot,
    checks: snapshot.checks ?? {},
    vehiclesActive: snapshot.vehiclesActive ?? 0,
    vehiclesReporting24h: snapshot.vehiclesReporting24h ?? 0,
    breadcrumbs24h: snapshot.breadcrumbs24h ?? 0,
  };
}

export interface IntegrationSnapshotStore {
  put(snapshot: HealthSnapshot): Promise<void>;
  /** The fleet's snapshots from `fromDay` through `toDay`, oldest first. */
  range(fleetId: string, fromDay: string, toDay: string): Promise<HealthSnapshot[]>;
}

export function createIntegrationSnapshotStore(
  client: DocumentClient,
  tableName: string,
): IntegrationSnapshotStore {
  return {
    async put(snapshot) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: toSnapshotItem(snapshot),
        }),
      );
    },

    async range(fleetId, fromDay, toDay) {
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': snapshotKey(fleetId, fromDay).pk,
            ':from': snapshotKey(fleetId, fromDay).sk,
            ':to': snapshotKey(fleetId, toDay).sk,
          },
        }),
      );
      return Items.map(fromSnapshotItem);
    },
  };
}
