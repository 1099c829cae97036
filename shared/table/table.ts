/**
 * The single table's shape, used by CDK (lib/data), the local stack and the integration tests, so
 * the three can never disagree. Every item has `pk`/`sk`; generic GSIs overload `gsi1pk`/`gsi1sk`
 * (every attribute projected). `gsi2` projects keys only: it indexes the latest-position item,
 * which every breadcrumb rewrites, and a keys-only entry is written only when its keys change
 * (online-index.ts), while an ALL entry would be rewritten, and billed, with every breadcrumb.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'KEYS_ONLY' },
  ],
} as const;

export const GSI1 = TABLE_KEYS.indexes[0].name;
export const GSI2 = TABLE_KEYS.indexes[1].name;

/** DynamoDB TTL wants epoch seconds. */
export function ttlEpochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
