/**
 * The single table's shape, used by CDK (lib/data), the local stack and the integration tests, so
 * the three can never disagree. Every item has `pk`/`sk`; generic GSIs overload `gsi1pk`/`gsi1sk`.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;

export const GSI1 = TABLE_KEYS.indexes[0].name;

/** DynamoDB TTL wants epoch seconds. */
export function ttlEpochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
