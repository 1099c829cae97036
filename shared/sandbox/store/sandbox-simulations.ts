import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { storedEnvelope } from '#shared/events/store/events.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryPages, sortKeyPrefix } from '#shared/table/query-pages.ts';
import { conditionalWrite } from '#shared/table/transactions.ts';
import type { Simulation } from '../domain/simulation.ts';

/**
 * Every twin's simulation is one item in one partition (`SANDBOX#SIMULATIONS`, sorted by fleet):
 * the tick lists them all with one paginated Query, no scan, no index. The trucks are stored as
 * JSON text (three small objects; the route lines are re-derived from each leg's two ends).
 */
const PARTITION = 'SANDBOX#SIMULATIONS';
export const simulationKey = (fleetId: string) => ({ pk: PARTITION, sk: `FLEET#${fleetId}` });

export interface SimulationStore {
  get(fleetId: string): Promise<Simulation | null>;
  /** Every twin's simulation, a page at a time. */
  list(): AsyncGenerator<Simulation>;
  /** Writes a new simulation (version 1) unless one exists; false when it did. */
  create(simulation: Simulation): Promise<boolean>;
  /** Writes the next version over `version - 1`; false when someone else wrote first. */
  save(simulation: Simulation): Promise<boolean>;
  /** The fleet's newest events, newest first. */
  recentEvents(fleetId: string, limit: number): Promise<EventEnvelope[]>;
  /** Every item of the fleet's partition whose sort key starts with one of the prefixes. */
  deleteFleetItems(fleetId: string, skPrefixes: readonly string[]): Promise<number>;
}

const toItem = (simulation: Simulation) => ({
  ...simulationKey(simulation.fleetId),
  fleet_id: simulation.fleetId,
  status: simulation.status,
  simulated_now_ms: simulation.simulatedNowMs,
  last_tick_at_ms: simulation.lastTickAtMs,
  last_activity_ms: simulation.lastActivityMs,
  trucks: JSON.stringify(simulation.trucks),
  generation: simulation.generation,
  version: simulation.version,
});

const fromItem = (item: Record<string, unknown>): Simulation => ({
  fleetId: item.fleet_id as string,
  status: item.status as Simulation['status'],
  simulatedNowMs: item.simulated_now_ms as number,
  lastTickAtMs: (item.last_tick_at_ms as number | null) ?? null,
  lastActivityMs: item.last_activity_ms as number,
  trucks: JSON.parse(item.trucks as string),
  // A simulation without a generation is generation 0.
  generation: (item.generation as number | undefined) ?? 0,
  version: item.version as number,
});

/** Deletes a reset keeps in flight at once. */
const DELETES_AT_ONCE = 16;

export function createSimulationStore(client: DocumentClient, tableName: string): SimulationStore {
  const put = async (simulation: Simulation, condition: string, values?: Record<string, unknown>) => {
    return conditionalWrite(() =>
      client.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem(simulation),
          ConditionExpression: condition,
          ...(values ? { ExpressionAttributeValues: values } : {}),
        }),
      ),
    );
  };
  return {
    async get(fleetId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: simulationKey(fleetId), ConsistentRead: true }),
      );
      return Item ? fromItem(Item) : null;
    },
    async *list() {
      const pages = queryPages(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': PARTITION },
      });
      for await (const page of pages) for (const item of page) yield fromItem(item);
    },
    create: (simulation) => put({ ...simulation, version: 1 }, 'attribute_not_exists(pk)'),
    save: (simulation) => put(simulation, 'version = :previous', { ':previous': simulation.version - 1 }),
    async recentEvents(fleetId, limit) {
      const { Items } = await client.send(
        new QueryCommand({
          TableName: tableName,
          ...sortKeyPrefix(`FLEET#${fleetId}`, 'EVT#'),
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (Items ?? []).map(storedEnvelope);
    },
    async deleteFleetItems(fleetId, skPrefixes) {
      let deleted = 0;
      for (const prefix of skPrefixes) {
        const pages = queryPages(client, {
          TableName: tableName,
          ...sortKeyPrefix(`FLEET#${fleetId}`, prefix),
          ProjectionExpression: 'pk, sk',
        });
        for await (const items of pages) {
          // A bounded number of deletes in flight, not a whole page's at once.
          for (let from = 0; from < items.length; from += DELETES_AT_ONCE) {
            await Promise.all(
              items
                .slice(from, from + DELETES_AT_ONCE)
                .map((item) =>
                  client.send(new DeleteCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } })),
                ),
            );
          }
          deleted += items.length;
        }
      }
      return deleted;
    },
  };
}
