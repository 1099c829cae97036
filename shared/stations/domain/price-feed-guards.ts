import { formatTimestamp } from '#shared/kernel/time.ts';
import type { PriceFileFormat } from './catalog-import.ts';
import type { Station } from './station.ts';

/**
 * The file-level guards of a price feed import: what a file would change in the catalog, and
 * whether it may. Rows are judged one by one in catalog-import.ts; these judge the file as a whole.
 */

export interface PriceFeedPolicy {
  /** Refuse the file when fewer than this share of its rows are accepted (0–1). */
  minAcceptedShare: number;
  /** Refuse the file when the current imported catalog would lose more than this share of its stations (0–1). */
  maxStationLossShare: number;
}

export const DEFAULT_PRICE_FEED_POLICY: PriceFeedPolicy = {
  minAcceptedShare: 0.95,
  maxStationLossShare: 0.1,
};

/** Where the policy can be changed: environment variables (the Lambda) and flags (the CLI). */
export const PRICE_FEED_POLICY_ENV = {
  minAcceptedShare: 'PRICE_FEED_MIN_ACCEPTED_SHARE',
  maxStationLossShare: 'PRICE_FEED_MAX_STATION_LOSS_SHARE',
} as const;

/**
 * The stage's price feed bucket: a price provider drops files under `incoming/` (publish) or
 * `dry-run/` (validate and diff only); the import writes what it did to `reports/<key>.json`.
 */
export const PRICE_FEED_PREFIXES = { publish: 'incoming/', dryRun: 'dry-run/', reports: 'reports/' } as const;

/** A national truck-stop feed is a few MB; a file fifty times that is a mistake, not a feed. */
export const PRICE_FILE_MAX_BYTES = 50 * 1024 * 1024;

/** A file over the size cap: refused without reading it. */
export class PriceFileTooLargeError extends Error {
  constructor(readonly sizeBytes: number) {
    super(`The price file is ${sizeBytes} bytes, over the ${PRICE_FILE_MAX_BYTES}-byte cap`);
    this.name = 'PriceFileTooLargeError';
  }
}

/** How many of the largest price changes a diff lists. */
export const LARGEST_PRICE_MOVES = 10;

/** A share given as text (environment, flag): a number from 0 to 1, or an error naming where it came from. */
export function parseShare(value: string, name: string): number {
  const share = Number(value);
  if (value.trim() === '' || !Number.isFinite(share) || share < 0 || share > 1) {
    throw new Error(`${name} must be a share between 0 and 1 (e.g. 0.95), not '${value}'`);
  }
  return share;
}

/** The policy from the environment, each variable falling back to the default when unset. */
export function priceFeedPolicyFromEnv(env: Record<string, string | undefined>): PriceFeedPolicy {
  const share = (key: keyof PriceFeedPolicy) => {
    const name = PRICE_FEED_POLICY_ENV[key];
    const value = env[name];
    return value === undefined || value === '' ? DEFAULT_PRICE_FEED_POLICY[key] : parseShare(value, name);
  };
  return { minAcceptedShare: share('minAcceptedShare'), maxStationLossShare: share('maxStationLossShare') };
}

/** The format a file's name says (`.csv`, `.json`, any case), or null for anything else. */
export function priceFileFormatOf(name: string): PriceFileFormat | null {
  const extension = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  return extension === 'csv' || extension === 'json' ? extension : null;
}

export interface PriceMove {
  stationId: string;
  name: string;
  fromUsdPerGallon: number;
  toUsdPerGallon: number;
  /** to − from, dollars per gallon (negative: cheaper). */
  changeUsdPerGallon: number;
}

/**
 * What replacing `current` by `next` changes, station by station (by id). A kept station counts as
 * repriced when its diesel price changed and as moved when its coordinates did, possibly both;
 * unchanged when neither.
 */
export interface CatalogDiff {
  added: number;
  removed: number;
  repriced: number;
  moved: number;
  unchanged: number;
  /** The largest price changes by size, at most {@link LARGEST_PRICE_MOVES}. */
  largestPriceMoves: PriceMove[];
}

export function diffCatalogs(current: readonly Station[], next: readonly Station[]): CatalogDiff {
  const before = new Map(current.map((station) => [station.id, station]));
  const diff: CatalogDiff = {
    added: 0,
    removed: 0,
    repriced: 0,
    moved: 0,
    unchanged: 0,
    largestPriceMoves: [],
  };
  const moves: PriceMove[] = [];
  const kept = new Set<string>();
  for (const station of next) {
    const old = before.get(station.id);
    if (!old) {
      diff.added++;
      continue;
    }
    kept.add(station.id);
    const repriced = old.dieselPriceUsdPerGallon !== station.dieselPriceUsdPerGallon;
    const moved = old.latitude !== station.latitude || old.longitude !== station.longitude;
    if (repriced) {
      diff.repriced++;
      moves.push({
        stationId: station.id,
        name: station.name,
        fromUsdPerGallon: old.dieselPriceUsdPerGallon,
        toUsdPerGallon: station.dieselPriceUsdPerGallon,
        // Prices carry a tenth of a cent; the difference of two binary fractions may not.
        changeUsdPerGallon:
          Math.round((station.dieselPriceUsdPerGallon - old.dieselPriceUsdPerGallon) * 1000) / 1000,
      });
    }
    if (moved) diff.moved++;
    if (!repriced && !moved) diff.unchanged++;
  }
  diff.removed = current.length - kept.size;
  diff.largestPriceMoves = moves
    .sort(
      (a, b) =>
        Math.abs(b.changeUsdPerGallon) - Math.abs(a.changeUsdPerGallon) ||
        a.stationId.localeCompare(b.stationId),
    )
    .slice(0, LARGEST_PRICE_MOVES);
  return diff;
}

export interface PriceFileFacts {
  /** Data rows in the file (accepted + rejected). */
  totalRows: number;
  acceptedRows: number;
  diff: CatalogDiff;
  /**
   * The size of the imported catalog now current, or null when the stage serves the synthetic
   * catalog: that one is not data, so a first import replaces it whatever its size.
   */
  currentImportedCount: number | null;
  /** The newest `price_updated_at` among the file's accepted rows; null when none was accepted. */
  fileNewestPriceMs: number | null;
  /** The current imported catalog's newest price; null for the synthetic catalog or one that does not record it. */
  currentNewestPriceMs: number | null;
}

/** Why the file may not be published, one sentence per guard; empty when it may. */
export function priceFileRefusals(facts: PriceFileFacts, policy: PriceFeedPolicy): string[] {
  const { totalRows, acceptedRows, diff, currentImportedCount, fileNewestPriceMs, currentNewestPriceMs } =
    facts;
  if (totalRows === 0) {
    return ['The file has no station rows (empty, a header alone, or []): there is nothing to publish.'];
  }
  const reasons: string[] = [];
  if (acceptedRows === 0) {
    reasons.push(`None of the file's ${count(totalRows)} rows was accepted: see the rejected rows.`);
  } else if (acceptedRows / totalRows < policy.minAcceptedShare) {
    reasons.push(
      `Only ${count(acceptedRows)} of ${count(totalRows)} rows (${percent(acceptedRows / totalRows)}) were accepted; at least ${percent(policy.minAcceptedShare)} must be (${PRICE_FEED_POLICY_ENV.minAcceptedShare}). Fix the rejected rows and drop the file again.`,
    );
  }
  if (currentImportedCount !== null && currentImportedCount > 0) {
    const lost = diff.removed / currentImportedCount;
    if (lost > policy.maxStationLossShare) {
      reasons.push(
        `Publishing would remove ${count(diff.removed)} of the current catalog's ${count(currentImportedCount)} stations (${percent(lost)}); at most ${percent(policy.maxStationLossShare)} may go at once (${PRICE_FEED_POLICY_ENV.maxStationLossShare}). Send the whole catalog, not part of it.`,
      );
    }
  }
  // S3 and EventBridge deliver at least once and in any order, and retries come late: an older file
  // must not replace a newer catalog. A file as new as the catalog (the same file again, or one
  // corrected without new prices) may.
  if (
    fileNewestPriceMs !== null &&
    currentNewestPriceMs !== null &&
    fileNewestPriceMs < currentNewestPriceMs
  ) {
    reasons.push(
      `The file's newest price (${formatTimestamp(fileNewestPriceMs)}) is older than the current catalog's (${formatTimestamp(currentNewestPriceMs)}): it is an earlier file delivered late or dropped again. Drop a current file.`,
    );
  }
  return reasons;
}

const count = (n: number) => n.toLocaleString('en-US');

/** 0.002 → "0.2 %", 0.95 → "95 %": one decimal only when it matters. */
function percent(share: number): string {
  const value = Math.round(share * 1000) / 10;
  return `${value} %`;
}
