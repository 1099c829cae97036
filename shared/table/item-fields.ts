/**
 * A record's fields and the attribute each is stored under. One such table per item serves
 * writing the item, reading it back and naming attributes in an update, so that a field's stored
 * name is written in one place. Declare it `as const satisfies ItemFields<…>` to keep the names
 * literal, for `StoredFields`.
 */
export type ItemFields<T> = { readonly [K in keyof T]-?: string };

/** The item attributes a table of fields stores: each field's value under its attribute's name. */
export type StoredFields<T, Names extends ItemFields<T>> = { -readonly [K in keyof T as Names[K]]: T[K] };

/** The attributes that hold `record`'s fields, named by `fields`. */
export function toItemFields<
  const Names extends Readonly<Record<string, string>>,
  T extends { [K in keyof Names]: unknown },
>(record: T, fields: Names): { -readonly [K in keyof Names as Names[K]]: T[K] } {
  return Object.fromEntries(Object.keys(fields).map((field) => [fields[field], record[field]])) as {
    -readonly [K in keyof Names as Names[K]]: T[K];
  };
}

/**
 * The fields `fields` names, as the item holds them. An absent attribute reads as null: the
 * fields of a table are either always written or nullable, and an optional one with a default
 * applies it (`?? default`) after reading.
 */
export function fromItemFields<T>(item: Readonly<Record<string, unknown>>, fields: ItemFields<T>): T {
  return Object.fromEntries(
    (Object.keys(fields) as (keyof T & string)[]).map((field) => [field, item[fields[field]] ?? null]),
  ) as T;
}
