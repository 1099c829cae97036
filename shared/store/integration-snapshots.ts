import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CheckId, CheckStatus } from '../domain/integration-health/checks.ts';
import type { Grade } from '../domain/integration-health/score.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';

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
          Item: {
            ...snapshotKey(snapshot.fleetId, snapshot.day),
            fleet_id: snapshot.fleetId,
            day: snapshot.day,
            checked_at: snapshot.checkedAt,
            score: snapshot.score,
            grade: snapshot.grade,
            checks: snapshot.checks,
            vehicles_active: snapshot.vehiclesActive,
            vehicles_reporting_24h: snapshot.vehiclesReporting24h,
            breadcrumbs_24h: snapshot.breadcrumbs24h,
            expires_at: ttlEpochSeconds(Date.parse(snapshot.day) + SNAPSHOT_RETENTION_DAYS * 86_400_000),
          },
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
      return Items.map((item) => ({
        fleetId: String(item.fleet_id),
        day: String(item.day),
        checkedAt: String(item.checked_at),
        score: Number(item.score),
        grade: item.grade as Grade,
        checks: (item.checks ?? {}) as Partial<Record<CheckId, CheckStatus>>,
        vehiclesActive: Number(item.vehicles_active ?? 0),
        vehiclesReporting24h: Number(item.vehicles_reporting_24h ?? 0),
        breadcrumbs24h: Number(item.breadcrumbs_24h ?? 0),
      }));
    },
  };
}
