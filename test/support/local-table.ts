import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { LOCAL_CREDENTIALS } from '#local/dynamodb-local.ts';
import { createDocumentClient, type DocumentClient } from '#shared/table/dynamo-client.ts';
import { tuplesOf } from '#shared/tracking/store/breadcrumb-packing.ts';
import { latestPositionKey } from '#shared/tracking/store/vehicle-positions.ts';
import './provided-context.ts';

/** The local stack's prod and control-plane table names (local/stack.ts). */
const LOCAL_PROD_TABLE = 'fleet-fuel-prod';
const LOCAL_CONTROL_TABLE = 'fleet-fuel-control';

/**
 * The local stack's prod table, for e2e checks of what was stored that no route shows (breadcrumb
 * history). Only on the local stack: check `isLocalTarget()` first.
 */
export function localProdTable(): { client: DocumentClient; tableName: string } {
  return localTable(LOCAL_PROD_TABLE);
}

/** The local stack's control plane (keys, plans, accounts), for tests that write a key of their own. */
export function localControlTable(): { client: DocumentClient; tableName: string } {
  return localTable(LOCAL_CONTROL_TABLE);
}

function localTable(tableName: string): { client: DocumentClient; tableName: string } {
  const endpoint = inject('e2eDynamoDbEndpoint');
  if (!endpoint) throw new Error('no local DynamoDB: the e2e tests run against a deployed stage');
  const dynamo = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  return { client: createDocumentClient(dynamo), tableName };
}

/**
 * Every breadcrumb time stored for the vehicle, as stored (repeats included): its history items and
 * the ring of newest breadcrumbs its latest-position item holds until they are flushed.
 */
export async function storedHistoryTimes(fleetId: string, vehicleId: string): Promise<number[]> {
  const { client, tableName } = localProdTable();
  const times: number[] = [];
  try {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `FLEET#${fleetId}`, ':prefix': `VEHHIST#${vehicleId}#` },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        for (const point of tuplesOf(item.points)) times.push(Number(point[0]));
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    const { Item } = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: latestPositionKey(fleetId, vehicleId),
        ConsistentRead: true,
      }),
    );
    for (const point of tuplesOf(Item?.ring)) times.push(Number(point[0]));
  } finally {
    client.destroy();
  }
  return times;
}
