/**
 * Where the stage's price feed lives (lib/price-feed.ts sets it on the import function and the
 * operator API's functions; docs/price-feed.md): the bucket the price provider drops files into.
 */
export const PRICE_FEED_BUCKET_ENV = 'PRICE_FEED_BUCKET';

/**
 * The bucket's key prefixes: a file under `incoming/` is published, one under `dry-run/` is only
 * compared with the current catalog; each import's report is written under `reports/`.
 */
export { PRICE_FEED_PREFIXES } from '#shared/stations/domain/price-feed-guards.ts';

/** The stage's price feed bucket, or null where there is none (the sandbox, the local stack). */
export function priceFeedBucket(env: NodeJS.ProcessEnv = process.env): string | null {
  return env[PRICE_FEED_BUCKET_ENV] || null;
}

/** Hours after which the newest station price counts as stale (StageSettings.stalePriceHours). */
export const STALE_PRICE_HOURS_ENV = 'STALE_PRICE_HOURS';
/** Production's threshold (lib/stage.ts), used where the variable is not set (the local stack). */
export const DEFAULT_STALE_PRICE_HOURS = 36;

/** The stale-price threshold in hours; a value that is not a positive number falls back to the default. */
export function stalePriceHours(env: NodeJS.ProcessEnv = process.env): number {
  const hours = Number(env[STALE_PRICE_HOURS_ENV]);
  return Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_STALE_PRICE_HOURS;
}
