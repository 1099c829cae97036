/**
 * Whether a stage serves prices an operator can stand behind: the catalog it serves (imported or
 * synthetic), how old its newest price is, and whether the latest price file was refused. Pure: the
 * readiness report (shared/admin/usecases/readiness.ts) and the freshness job feed it what they read.
 */

/** The catalog a stage serves, as the readiness report and the freshness job see it. */
export interface CatalogStatus {
  /** `imported`: a price file was published; `synthetic`: the embedded catalog (nothing imported yet). */
  source: 'imported' | 'synthetic';
  version: string;
  stationCount: number;
  /** When the imported catalog was published; null for the synthetic one. */
  importedAt: string | null;
  /** The newest `price_updated_at` of its stations; null when an imported catalog does not say. */
  newestPriceUpdatedAtMs: number | null;
}

/** The latest real price file import (dry runs are kept apart) as the readiness rules need it. */
export interface LastImportSummary {
  source: string;
  outcome: 'published' | 'refused' | 'dry_run';
  version: string;
  at: string;
  reasons: readonly string[];
}

export interface ReadinessInput {
  stage: 'prod' | 'sandbox';
  catalog: CatalogStatus;
  lastImport: LastImportSummary | null;
  staleAfterHours: number;
  nowMs: number;
}

export interface CatalogReadiness {
  ready: boolean;
  /** One sentence per problem, each saying what to do; empty when ready. */
  problems: string[];
  /** Hours since the newest price, to a tenth; null when unknown. */
  newestPriceAgeHours: number | null;
  stale: boolean;
}

/** Hours from the newest price to now, to a tenth of an hour; never negative (clock skew). */
export function priceAgeHours(newestPriceMs: number, nowMs: number): number {
  return Math.round(Math.max(0, nowMs - newestPriceMs) / 360_000) / 10;
}

/**
 * Not ready when production serves the synthetic catalog (the sandbox does so by design), when the
 * newest price is older than the threshold or its age is unknown, or when the latest price file was
 * refused after the catalog being served was published (the feed is stuck on a bad file).
 */
export function assessCatalogReadiness(input: ReadinessInput): CatalogReadiness {
  const { catalog, lastImport } = input;
  const problems: string[] = [];
  if (input.stage === 'prod' && catalog.source === 'synthetic') {
    problems.push(
      'Production serves the synthetic station catalog: publish the first price file (drop it under incoming/ in the price feed bucket, or run npm run stations:import).',
    );
  }

  const newestPriceAgeHours =
    catalog.newestPriceUpdatedAtMs === null
      ? null
      : priceAgeHours(catalog.newestPriceUpdatedAtMs, input.nowMs);
  const stale = newestPriceAgeHours === null || newestPriceAgeHours > input.staleAfterHours;
  if (newestPriceAgeHours === null) {
    problems.push(
      `Catalog ${catalog.version} does not record when its newest price was observed, so its freshness is unknown: publish a current price file.`,
    );
  } else if (stale) {
    problems.push(
      `The newest station price is ${newestPriceAgeHours} hours old, past the ${input.staleAfterHours}-hour threshold: the price feed has stopped; check the provider's drops and the last import's report.`,
    );
  }

  if (lastImport?.outcome === 'refused' && refusedAfterCurrent(lastImport, catalog)) {
    const why = lastImport.reasons.length > 0 ? ` (${lastImport.reasons.join(' ')})` : '';
    problems.push(
      `The latest price file ${lastImport.source} was refused at ${lastImport.at}${why}; catalog ${catalog.version} is still served: fix the file and drop it again.`,
    );
  }
  return { ready: problems.length === 0, problems, newestPriceAgeHours, stale };
}

/** A refusal matters when nothing newer was published since: no import at all, or one before it. */
function refusedAfterCurrent(lastImport: LastImportSummary, catalog: CatalogStatus): boolean {
  if (catalog.importedAt === null) return true;
  return Date.parse(lastImport.at) >= Date.parse(catalog.importedAt);
}
