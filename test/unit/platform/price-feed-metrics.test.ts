import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emitPriceFreshness } from '#shared/platform/price-feed-metrics.ts';
import { USAGE_METRICS_NAMESPACE } from '#shared/platform/usage-metrics.ts';

/** The EMF documents written to stdout while `run` runs. */
function captureEmf(run: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.includes('_aws'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

type Directive = { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] };

describe('the freshness job’s metrics (CloudWatch EMF)', () => {
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_DEV', '');
    vi.stubEnv('STAGE', 'prod');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('writes the newest price’s age and ImportedCatalog in one document, by service and stage, in the service’s namespace', () => {
    const documents = captureEmf(() => emitPriceFreshness({ source: 'imported', newestPriceAgeHours: 6.3 }));

    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({
      service: 'fleet-fuel-guidance',
      stage: 'prod',
      StationPriceAgeHours: 6.3,
      ImportedCatalog: 1,
    });
    const [directive] =
      (documents[0]?._aws as { CloudWatchMetrics: Directive[] } | undefined)?.CloudWatchMetrics ?? [];
    expect(directive?.Namespace).toBe(USAGE_METRICS_NAMESPACE);
    // Exactly the stale-price alarm's dimensions (lib/alarms.ts): another set would be another metric.
    expect(directive?.Dimensions).toEqual([['service', 'stage']]);
    expect(directive?.Metrics.map((m) => m.Name).sort()).toEqual(['ImportedCatalog', 'StationPriceAgeHours']);
  });

  it('writes no age when it is unknown (the alarm treats the gap as breaching), and 0 for the synthetic catalog', () => {
    const [unknown] = captureEmf(() => emitPriceFreshness({ source: 'imported', newestPriceAgeHours: null }));
    const [synthetic] = captureEmf(() =>
      emitPriceFreshness({ source: 'synthetic', newestPriceAgeHours: 0.2 }),
    );

    expect(unknown).not.toHaveProperty('StationPriceAgeHours');
    expect(unknown).toMatchObject({ ImportedCatalog: 1 });
    expect(synthetic).toMatchObject({ StationPriceAgeHours: 0.2, ImportedCatalog: 0 });
  });
});
