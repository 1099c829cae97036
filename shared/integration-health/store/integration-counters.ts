import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll } from '#shared/table/query-pages.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import type { IngestTally } from '../domain/ingest-tally.ts';
import { dayOf, hourOf } from '../domain/window.ts';

/**
 * The aggregates the health scorecard reads instead of raw history (docs/integration-health.md):
 *
 * - one item per fleet and UTC hour, `HEALTH#flt_…`/`HOUR#2026-11-23T14`: breadcrumbs accepted,
 *   with a fuel level, rejected items, ingest requests, the cadence gaps measured at ingest, and
 *   per webhook endpoint its delivery attempts and successes (`wh_attempts_<id>`, `wh_ok_<id>`).
 *   Ingest adds to it once per request (never per breadcrumb), the dispatcher once per attempt;
 *   every write is a single `ADD`, so concurrent writers never conflict;
 * - one marker per UTC day and fleet with activity, `HEALTHDAY#2026-11-23`/`FLEET#flt_…`, put when
 *   a fleet's hour item is first written (at most 24 small writes a fleet a day): the fleets the
 *   daily snapshot job visits, found without a table scan.
 */
export const healthHourKey = (fleetId: string, atMs: number) => ({
  pk: `HEALTH#${fleetId}`,
  sk: `HOUR#${hourOf(atMs)}`,
});
export const activeFleetKey = (day: string, fleetId: string) => ({
  pk: `HEALTHDAY#${day}`,
  sk: `FLEET#${fleetId}`,
});

/** A day of counters is read for the scorecard; a week is kept to look back on a bad day. */
const COUNTER_RETENTION_DAYS = 8;
const MARKER_RETENTION_DAYS = 3;

export interface EndpointDeliveries {
  attempts: number;
  succeeded: number;
}

export interface HealthHour {
  hour: string;
  breadcrumbs: number;
  withLevel: number;
  rejected: number;
  requests: number;
  gapMsSum: number;
  gapCount: number;
  /** By endpoint id. */
  deliveries: Map<string, EndpointDeliveries>;
}

export interface IntegrationCounterStore {
  /** One ingest request's tally, added to the fleet's hour of `atMs`. */
  recordIngest(fleetId: string, atMs: number, tally: IngestTally): Promise<void>;
  /** One webhook delivery attempt to a fleet's endpoint and whether it answered 2xx. */
  recordDeliveryAttempt(fleetId: string, endpointId: string, atMs: number, succeeded: boolean): Promise<void>;
  /** The fleet's hour items from the hour of `fromMs` through the hour of `toMs`. */
  hours(fleetId: string, fromMs: number, toMs: number): Promise<HealthHour[]>;
  /** Fleets with counters written on `day` (UTC). */
  activeFleets(day: string): Promise<string[]>;
}

const number = (value: unknown) => Number(value ?? 0);

function fromHourItem(item: Record<string, unknown>): HealthHour {
  const deliveries = new Map<string, EndpointDeliveries>();
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith('wh_attempts_')) continue;
    const endpointId = name.slice('wh_attempts_'.length);
    deliveries.set(endpointId, { attempts: number(value), succeeded: number(item[`wh_ok_${endpointId}`]) });
  }
  return {
    hour: String(item.sk).slice('HOUR#'.length),
    breadcrumbs: number(item.breadcrumbs),
    withLevel: number(item.with_level),
    rejected: number(item.rejected),
    requests: number(item.requests),
    gapMsSum: number(item.gap_ms_sum),
    gapCount: number(item.gap_count),
    deliveries,
  };
}

export function createIntegrationCounterStore(
  client: DocumentClient,
  tableName: string,
): IntegrationCounterStore {
  /**
   * One `ADD` to the hour item; `first_at` is set only by the hour's first write, which therefore
   * also marks the fleet active that day.
   */
  const addToHour = async (fleetId: string, atMs: number, adds: Record<string, number>): Promise<void> => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {
      ':now': atMs,
      ':ttl': ttlEpochSeconds(atMs + COUNTER_RETENTION_DAYS * 86_400_000),
    };
    const terms = Object.entries(adds).map(([name, amount], i) => {
      names[`#a${i}`] = name;
      values[`:a${i}`] = amount;
      return `#a${i} :a${i}`;
    });
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: healthHourKey(fleetId, atMs),
        UpdateExpression: `ADD ${terms.join(', ')} SET first_at = if_not_exists(first_at, :now), expires_at = if_not_exists(expires_at, :ttl)`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    if (Attributes?.first_at === undefined) {
      const day = dayOf(atMs);
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...activeFleetKey(day, fleetId),
            fleet_id: fleetId,
            expires_at: ttlEpochSeconds(atMs + MARKER_RETENTION_DAYS * 86_400_000),
          },
        }),
      );
    }
  };

  return {
    async recordIngest(fleetId, atMs, tally) {
      await addToHour(fleetId, atMs, {
        requests: 1,
        breadcrumbs: tally.accepted,
        with_level: tally.withLevel,
        rejected: tally.rejected,
        gap_ms_sum: tally.gapMsSum,
        gap_count: tally.gapCount,
      });
    },

    async recordDeliveryAttempt(fleetId, endpointId, atMs, succeeded) {
      await addToHour(fleetId, atMs, {
        [`wh_attempts_${endpointId}`]: 1,
        [`wh_ok_${endpointId}`]: succeeded ? 1 : 0,
      });
    },

    async hours(fleetId, fromMs, toMs) {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': healthHourKey(fleetId, fromMs).pk,
          ':from': healthHourKey(fleetId, fromMs).sk,
          ':to': healthHourKey(fleetId, Math.max(fromMs, toMs)).sk,
        },
      });
      return items.map(fromHourItem);
    },

    async activeFleets(day) {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `HEALTHDAY#${day}` },
        ProjectionExpression: 'fleet_id',
      });
      return items.map((item) => String(item.fleet_id));
    },
  };
}
