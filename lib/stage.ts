import { ROUTING_ENGINES, type RoutingEngineName } from '#shared/geo/routing-engine-factory.ts';
import type { Stage } from '#shared/platform/config.ts';
import { DEFAULT_STALE_PRICE_HOURS } from '#shared/platform/price-feed-config.ts';

export type { Stage };

/** What differs between the two deployed stages; everything else is identical by construction. */
export interface StageSettings {
  stage: Stage;
  /** Keep data (table, secret, logs) when the stack or a resource is deleted or replaced. */
  retainData: boolean;
  /**
   * The stale-price alarm's threshold, and readiness's: the newest station price older than this
   * pages the operator (lib/alarms.ts). Used on production only, the stage with a price feed.
   */
  stalePriceHours: number;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /**
   * API Gateway's stage-wide throttle. A backstop against floods that would otherwise burn the account's
   * Lambda concurrency and on-demand DynamoDB capacity, not the product's rate limit: per-key limits
   * (docs/limits.md) are enforced in the functions and answer 429 problem+json with RateLimit headers,
   * whereas API Gateway's own 429 is a bare `{"message":"Too Many Requests"}`. So these sit well above
   * any plan's per-key rate, and the per-key limits trip first.
   */
  throttle: { rateLimit: number; burstLimit: number };
  /**
   * `amazon-location` (Amazon Location Service's truck routing, per-request cost) or `embedded`
   * (the interstate graph, free, no truck restrictions). Sets ROUTING_ENGINE and, for
   * `amazon-location`, grants geo-routes:CalculateRoutes. docs/routing.md.
   */
  routingEngine: RoutingEngineName;
  /**
   * The most invocations each queue consumer runs at once (its event source's maximum concurrency):
   * a backlog drains at this pace instead of taking the account's Lambda concurrency, which both
   * stages share, from the API's functions. The sandbox's are small, so a storm of test traffic
   * cannot starve production's ingest (docs/scaling.md, "Concurrency").
   */
  consumerConcurrency: { guidanceWorker: number; webhookDispatcher: number };
  /**
   * Concurrency reserved for the breadcrumb ingest route (`POST /v1/locations`), so that nothing
   * else in the account (the sandbox, a webhook backlog, a burst of route planning) can take the
   * executions it needs; also its ceiling. Null: none reserved. The account must keep 100 unreserved
   * beyond it (docs/scaling.md, "Concurrency").
   */
  ingestReservedConcurrency: number | null;
}

export const stageSettings: Readonly<Record<Stage, StageSettings>> = {
  prod: {
    stage: 'prod',
    retainData: true,
    // Providers publish truck-stop prices daily; a day and a half is one missed file plus the hours a
    // late one takes, and still well before stations are flagged stale (48 h) on every answer.
    stalePriceHours: DEFAULT_STALE_PRICE_HOURS,
    logLevel: 'INFO',
    // ~10k vehicles reporting every minute is ~170 req/s; 500/s leaves room for the other families.
    throttle: { rateLimit: 500, burstLimit: 1000 },
    // Real roads with truck restrictions (heights, weights, hazardous cargo); the embedded graph is
    // the fallback, switched to with `-c routingEngine=embedded` (settingsFor).
    routingEngine: 'amazon-location',
    // ~80 concurrent worker batches at 100,000 trucks (docs/scaling.md); deliveries are a fraction of it.
    consumerConcurrency: { guidanceWorker: 300, webhookDispatcher: 50 },
    // ~15 concurrent batched POSTs at 100,000 trucks (docs/scaling.md); 100 leaves room for bursts.
    ingestReservedConcurrency: 100,
  },
  sandbox: {
    stage: 'sandbox',
    retainData: false,
    // Unused: the sandbox serves the synthetic catalog by design, so it has no price feed to watch.
    stalePriceHours: DEFAULT_STALE_PRICE_HOURS,
    // Integrators debug against the sandbox, and its traffic is small enough for debug logs.
    logLevel: 'DEBUG',
    throttle: { rateLimit: 50, burstLimit: 100 },
    // The sandbox always routes on the embedded graph: free, deterministic, and what its prices are built on.
    routingEngine: 'embedded',
    // Three simulated trucks per company and integrators' test traffic.
    consumerConcurrency: { guidanceWorker: 20, webhookDispatcher: 10 },
    ingestReservedConcurrency: null,
  },
};

/** The CDK context key that overrides production's routing engine: `cdk deploy -c routingEngine=embedded`. */
export const ROUTING_ENGINE_CONTEXT = 'routingEngine';

/**
 * A stage's settings with the deploy's context applied. `routingEngine` switches production
 * between Amazon Location and the embedded graph without a code change (the fallback when Amazon
 * Location is not available in the account or region, or misbehaves). The sandbox ignores it: its
 * prices and its simulated fleets are built on the embedded graph. Any other value stops the synth.
 */
export function settingsFor(stage: Stage, context: { routingEngine?: unknown } = {}): StageSettings {
  const settings = stageSettings[stage];
  const override = context.routingEngine;
  if (override === undefined) return settings;
  if (!ROUTING_ENGINES.some((name) => name === override)) {
    throw new Error(
      `Context '${ROUTING_ENGINE_CONTEXT}' must be one of ${ROUTING_ENGINES.map((name) => `'${name}'`).join(', ')}; ` +
        `got ${JSON.stringify(override)}.`,
    );
  }
  if (stage !== 'prod') return settings;
  return { ...settings, routingEngine: override as RoutingEngineName };
}

/** Stack names are what operators type (`cdk deploy FleetFuel-prod`), so they are fixed here once. */
export function stackName(stage: Stage): string {
  return `FleetFuel-${stage}`;
}
