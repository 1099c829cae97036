import { randomBytes } from 'node:crypto';
import { deleteTable, ensureTable, type TableAdminClient } from '#local/table-setup.ts';
import { createDocumentClient, type DocumentClient } from '#shared/table/dynamo-client.ts';

/**
 * Helpers for the integration tests (project `integration`, which starts DynamoDB Local and sets
 * DYNAMODB_ENDPOINT before any test file loads).
 *
 * @example
 * const client = testDocumentClient();
 * let table: string;
 * beforeAll(async () => { table = await createTestTable(client); });
 * afterAll(() => deleteTestTable(client, table));
 */

/** DynamoDB Local's URL for this run. */
export function dynamoDbEndpoint(): string {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) {
    throw new Error(
      'DYNAMODB_ENDPOINT is not set: run integration tests with `vitest run --project integration`',
    );
  }
  return endpoint;
}

/** A DocumentClient on the run's DynamoDB Local (the same factory the handlers use). */
export function testDocumentClient(): DocumentClient {
  return createDocumentClient({
    region: process.env.AWS_REGION ?? 'us-east-1',
    endpoint: dynamoDbEndpoint(),
  });
}

/**
 * Creates a table with the production shape (TABLE_KEYS: keys, GSIs, TTL) under a fresh name, so
 * every test file (or test) works on its own table. Returns the table name.
 */
export async function createTestTable(client: TableAdminClient, prefix = 'test'): Promise<string> {
  const tableName = `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  await ensureTable(client, tableName);
  return tableName;
}

/** Deletes a table made by {@link createTestTable}; missing tables are fine. */
export function deleteTestTable(client: TableAdminClient, tableName: string): Promise<void> {
  return deleteTable(client, tableName);
}
