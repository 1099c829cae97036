import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteTable, ensureTable } from '#local/table-setup.ts';
import { TABLE_KEYS } from '#shared/table/table.ts';
import { testDocumentClient } from '#test/support/dynamodb.ts';

const client = testDocumentClient();
const tableName = `setup-${randomBytes(4).toString('hex')}`;
afterAll(() => deleteTable(client, tableName));

describe('the local table set-up', () => {
  it('adds the indexes a kept table (--db-path) was created without, with their projections', async () => {
    // The shape before the online index: gsi1 only.
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    expect(await ensureTable(client, tableName)).toBe(false);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      projection: index.Projection?.ProjectionType,
    }));
    expect(indexes.sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      TABLE_KEYS.indexes.map((index) => ({ name: index.name, projection: index.projection })),
    );
    // Run again: nothing left to add.
    expect(await ensureTable(client, tableName)).toBe(false);
  });
});
