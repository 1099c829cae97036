/** Every list answers `{ data, next_cursor }`; `next_cursor` is null on the last page. */
export interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Every item of a cursor list, page after page, fetched as the loop asks for them:
 *
 * ```ts
 * for await (const vehicle of paginate((cursor) =>
 *   client.GET('/v1/vehicles', { params: { query: { cursor, limit: 100 } } }),
 * )) { … }
 * ```
 *
 * `fetchPage` gets `undefined` for the first page, then each `next_cursor`. It may return the
 * page itself or an openapi-fetch result (`{ data }`).
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T> | { data?: CursorPage<T> }>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  do {
    const answer = await fetchPage(cursor);
    const page = isPage<T>(answer) ? answer : answer.data;
    if (!page) throw new TypeError('paginate: fetchPage answered no page');
    yield* page.data;
    cursor = page.next_cursor ?? undefined;
    // A cursor answered twice would loop forever: stop loudly instead.
    if (cursor !== undefined && seen.has(cursor))
      throw new Error(`paginate: the cursor ${cursor} came back twice`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor);
}

function isPage<T>(value: unknown): value is CursorPage<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'next_cursor' in value &&
    Array.isArray((value as CursorPage<T>).data)
  );
}
