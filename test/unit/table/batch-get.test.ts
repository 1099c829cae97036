import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { batchGetItems } from '#shared/table/batch-get.ts';

const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());
// The mock patches the class for every file that runs in this worker after this one: put it back.
afterAll(() => dynamo.restore());

const key = (n: number) => ({ pk: 'P', sk: `K${n}` });
const keysOf = (input: unknown) =>
  ((input as { RequestItems: Record<string, { Keys: { sk: string }[] }> }).RequestItems.t?.Keys ?? []).map(
    (k) => k.sk,
  );

describe('batchGetItems', () => {
  it('asks 100 keys a call, asks again for what DynamoDB left unprocessed, and returns what exists', async () => {
    let leftOnce = false;
    dynamo.on(BatchGetCommand).callsFake((input) => {
      const asked = keysOf(input);
      // The first call of the first 100 leaves K7 unprocessed; K3 does not exist.
      const unprocessed = !leftOnce && asked.includes('K7') ? ['K7'] : [];
      leftOnce ||= unprocessed.length > 0;
      const found = asked.filter((sk) => sk !== 'K3' && !unprocessed.includes(sk));
      return {
        Responses: { t: found.map((sk) => ({ pk: 'P', sk })) },
        UnprocessedKeys: unprocessed.length
          ? { t: { Keys: unprocessed.map((sk) => ({ pk: 'P', sk })) } }
          : {},
      };
    });
    const keys = Array.from({ length: 150 }, (_, n) => key(n));
    const items = await batchGetItems(documents, 't', keys);
    expect(items.map((item) => item.sk).sort()).toEqual(
      keys
        .map((k) => k.sk)
        .filter((sk) => sk !== 'K3')
        .sort(),
    );
    const calls = dynamo.commandCalls(BatchGetCommand).map((call) => keysOf(call.args[0].input));
    expect(calls.map((asked) => asked.length)).toEqual([100, 50, 1]);
    expect(calls[2]).toEqual(['K7']);
  });

  it('fails rather than pass a key still unprocessed after the last round for a missing item', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { t: [] }, UnprocessedKeys: { t: { Keys: [key(1)] } } });
    await expect(
      batchGetItems(documents, 't', [key(1)], { maxRounds: 2, what: 'vehicle keys' }),
    ).rejects.toThrow('BatchGetItem left 1 vehicle keys unprocessed after 2 rounds');
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(2);
  });
});
