import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { type CursorCodec, MAX_LIST_READS, type Page } from './cursor.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { GSI1 } from './table.ts';

/** An item as the document client returns it. */
type Item = NonNullable<QueryCommandOutput['Items']>[number];
/** A query to read to its end: where it starts is the reader's to carry from page to page. */
export type FullQuery = Omit<QueryCommandInput, 'ExclusiveStartKey'>;

/** The key condition of a partition's items whose sort key starts with `prefix`. */
export function sortKeyPrefix(pk: string, prefix: string) {
  return {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
  };
}

/** The key condition of one GSI1 partition: the items a list filters on (a status, an account). */
export function gsi1Partition(gsi1pk: string) {
  return {
    IndexName: GSI1,
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': gsi1pk },
  };
}

/**
 * The pages of one query, each read when the one before it has been taken, until DynamoDB reports
 * no more (a page ends at 1 MB or at `Limit`): for the reads that want every item of a key range.
 * A caller that stops early stops the reads.
 */
export async function* queryPages(client: DocumentClient, input: FullQuery): AsyncGenerator<Item[]> {
  let start: Item | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every item of one query, page after page. */
export async function queryAll(client: DocumentClient, input: FullQuery): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages(client, input)) items.push(...page);
  return items;
}

/**
 * One page of a listing: the query resumed where the caller's cursor points (a cursor signed for
 * another `scope` is refused as `invalid_cursor`), its items mapped, and the cursor of the page
 * after it (null at the end).
 */
export async function queryCursorPage<T>(
  client: DocumentClient,
  cursors: CursorCodec,
  scope: string,
  cursor: string | undefined,
  input: FullQuery,
  map: (item: Item) => T,
): Promise<Page<T>> {
  const { Items = [], LastEvaluatedKey } = await client.send(
    new QueryCommand({ ...input, ExclusiveStartKey: cursor ? cursors.decode(scope, cursor) : undefined }),
  );
  return {
    data: Items.map(map),
    next_cursor: LastEvaluatedKey ? cursors.encode(scope, LastEvaluatedKey) : null,
  };
}

/** The page a listing is asked for: the list it belongs to (`scope`), where it resumes, how many. */
export interface PageAsked {
  scope: string;
  cursor: string | undefined;
  limit: number;
}

/**
 * One page of a listing whose filter can thin what DynamoDB reads (the filter runs after `Limit`):
 * it reads on until the page is full, the range ends, or MAX_LIST_READS reads are spent; a sparse
 * filter over a long range then answers what it found, with a cursor to go on.
 */
export async function queryFilteredPage<T>(
  client: DocumentClient,
  cursors: CursorCodec,
  { scope, cursor, limit }: PageAsked,
  input: Omit<FullQuery, 'Limit'>,
  map: (item: Item) => T,
): Promise<Page<T>> {
  const data: T[] = [];
  let start = cursor ? cursors.decode(scope, cursor) : undefined;
  for (let reads = 0; reads < MAX_LIST_READS && data.length < limit; reads++) {
    const { Items = [], LastEvaluatedKey } = await client.send(
      new QueryCommand({ ...input, Limit: limit - data.length, ExclusiveStartKey: start }),
    );
    data.push(...Items.map(map));
    start = LastEvaluatedKey;
    if (!start) break;
  }
  return { data, next_cursor: start ? cursors.encode(scope, start) : null };
}
