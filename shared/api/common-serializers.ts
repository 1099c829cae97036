/** One page of a list (docs/api-guide.md#conventions): the items, and the cursor of the next page or null. */
export function pageResource<T, R>(
  page: { data: readonly T[]; next_cursor: string | null },
  serialize: (item: T) => R,
) {
  return { data: page.data.map((item) => serialize(item)), next_cursor: page.next_cursor };
}
