import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCursorCodec } from '#shared/table/cursor.ts';
import { queryAll, queryCursorPage, queryPages } from '#shared/table/query-pages.ts';

const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());
// The mock patches the class for every file that runs in this worker after this one: put it back.
afterAll(() => dynamo.restore());

const query = {
  TableName: 't',
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': 'P' },
};

/** Three pages of two items each; each page after the first starts where the one before ended. */
function threePages() {
  dynamo.on(QueryCommand).callsFake((input: { ExclusiveStartKey?: { sk: string } }) => {
    const page = input.ExclusiveStartKey ? (Number(input.ExclusiveStartKey.sk.slice(1)) + 1) / 2 : 0;
    const items = [0, 1].map((n) => ({ pk: 'P', sk: `K${page * 2 + n}` }));
    return { Items: items, LastEvaluatedKey: page < 2 ? items[1] : undefined };
  });
}

describe('queryPages / queryAll', () => {
  it('reads on from each page’s last key until DynamoDB reports no more, asking the same query each time', async () => {
    threePages();
    const items = await queryAll(documents, query);
    expect(items.map((item) => item.sk)).toEqual(['K0', 'K1', 'K2', 'K3', 'K4', 'K5']);
    const calls = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(calls.map((input) => input.ExclusiveStartKey)).toEqual([
      undefined,
      { pk: 'P', sk: 'K1' },
      { pk: 'P', sk: 'K3' },
    ]);
    for (const input of calls) expect(input).toMatchObject(query);
  });

  it('reads the next page only when the one before is taken: a caller that stops early stops the reads', async () => {
    threePages();
    for await (const page of queryPages(documents, query)) {
      expect(page.map((item) => item.sk)).toEqual(['K0', 'K1']);
      break;
    }
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(1);
  });

  it('treats a page without items as empty', async () => {
    dynamo.on(QueryCommand).resolves({});
    expect(await queryAll(documents, query)).toEqual([]);
  });
});

describe('queryCursorPage', () => {
  const cursors = createCursorCodec('test-signing-key', () => 1_000);
  const page = { ...query, Limit: 2 };

  it('reads one page, maps its items, and hands back a cursor that resumes the same list after it', async () => {
    threePages();
    const first = await queryCursorPage(documents, cursors, 'list:P', undefined, page, (item) => item.sk);
    expect(first.data).toEqual(['K0', 'K1']);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await queryCursorPage(
      documents,
      cursors,
      'list:P',
      first.next_cursor ?? undefined,
      page,
      (item) => item.sk,
    );
    expect(second.data).toEqual(['K2', 'K3']);
    const calls = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(calls).toEqual([
      { ...page, ExclusiveStartKey: undefined },
      { ...page, ExclusiveStartKey: { pk: 'P', sk: 'K1' } },
    ]);
  });

  it('has no next cursor on the last page', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ sk: 'K9' }] });
    expect(await queryCursorPage(documents, cursors, 'list:P', undefined, page, (item) => item.sk)).toEqual({
      data: ['K9'],
      next_cursor: null,
    });
  });

  it('refuses a cursor of another list before reading anything', async () => {
    threePages();
    const other = await queryCursorPage(documents, cursors, 'list:Q', undefined, page, (item) => item.sk);
    dynamo.resetHistory();
    await expect(
      queryCursorPage(documents, cursors, 'list:P', other.next_cursor ?? undefined, page, (item) => item.sk),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
