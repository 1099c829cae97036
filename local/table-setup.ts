import {
  type AttributeDefinition,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS } from '#shared/table/table.ts';

/**
 * Any client whose `send` takes the low-level table commands. A DocumentClient passes too: it runs
 * any command through the same middleware stack, only its TypeScript overloads are narrower.
 */
export type TableAdminClient = DynamoDBClient | { send(command: never): Promise<unknown> };

const send = <T>(client: TableAdminClient, command: unknown): Promise<T> =>
  (client as DynamoDBClient).send(command as CreateTableCommand) as Promise<T>;

/**
 * Creates the single table exactly as lib/data does (same keys, GSIs with their projections,
 * on-demand billing, TTL attribute), so local runs and tests exercise the deployed shape.
 * Idempotent: an existing table (a kept `--db-path`) only gets the indexes added since it was
 * created, as a deploy adds them. Returns whether the table was created.
 */
export async function ensureTable(client: TableAdminClient, tableName: string): Promise<boolean> {
  const keyNames = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const index of TABLE_KEYS.indexes) {
    keyNames.add(index.partitionKey);
    keyNames.add(index.sortKey);
  }
  const attributeDefinitions: AttributeDefinition[] = [...keyNames].map((name) => ({
    AttributeName: name,
    AttributeType: 'S',
  }));
  let created = true;
  try {
    await send(
      client,
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributeDefinitions,
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_KEYS.indexes.map(indexSpecification),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    created = false;
  }
  await waitUntilActive(client, tableName);
  if (!created) await addMissingIndexes(client, tableName, attributeDefinitions);
  await enableTtl(client, tableName);
  return created;
}

/** Deletes a table; a table that is already gone is fine. */
export async function deleteTable(client: TableAdminClient, tableName: string): Promise<void> {
  try {
    await send(client, new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}

const indexSpecification = (index: (typeof TABLE_KEYS.indexes)[number]) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: index.projection },
});

async function addMissingIndexes(
  client: TableAdminClient,
  tableName: string,
  attributeDefinitions: AttributeDefinition[],
): Promise<void> {
  const { Table } = await send<{ Table?: { GlobalSecondaryIndexes?: { IndexName?: string }[] } }>(
    client,
    new DescribeTableCommand({ TableName: tableName }),
  );
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  // One index per update, as DynamoDB allows.
  for (const index of TABLE_KEYS.indexes.filter((candidate) => !existing.has(candidate.name))) {
    await send(
      client,
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: indexSpecification(index) }],
      }),
    );
    await waitUntilActive(client, tableName);
  }
}

async function waitUntilActive(client: TableAdminClient, tableName: string): Promise<void> {
  // DynamoDB Local creates tables ACTIVE at once; the loop only guards against a slower engine.
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const { Table } = await send<{ Table?: { TableStatus?: string } }>(
      client,
      new DescribeTableCommand({ TableName: tableName }),
    );
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
  throw new Error(`Table ${tableName} did not become ACTIVE`);
}

async function enableTtl(client: TableAdminClient, tableName: string): Promise<void> {
  const { TimeToLiveDescription } = await send<{ TimeToLiveDescription?: { TimeToLiveStatus?: string } }>(
    client,
    new DescribeTimeToLiveCommand({ TableName: tableName }),
  );
  const status = TimeToLiveDescription?.TimeToLiveStatus;
  if (status === 'ENABLED' || status === 'ENABLING') return;
  await send(
    client,
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
    }),
  );
}
