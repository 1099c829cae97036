import type { AmazonLocationRouterOptions } from './amazon-location-router.ts';
import { createEmbeddedRouter } from './embedded-router.ts';
import type { RoutingEngine } from './routing-engine.ts';

/** The values `ROUTING_ENGINE` accepts. */
export const ROUTING_ENGINES = ['embedded', 'amazon-location'] as const;

export type RoutingEngineName = (typeof ROUTING_ENGINES)[number];

/**
 * The routing engine named by `ROUTING_ENGINE`: `amazon-location` is Amazon Location Service in
 * truck mode, in the Lambda's own region (production's); unset (or empty) or `embedded` is the
 * embedded interstate graph (the sandbox's, the local stack's, the tests', production's fallback:
 * docs/routing.md). Anything else is a deployment mistake, refused at start-up rather than
 * silently routed with the default.
 *
 * @example
 * const router = createRoutingEngine({ ROUTING_ENGINE: 'amazon-location', AWS_REGION: 'us-east-1' });
 */
export function createRoutingEngine(env: NodeJS.ProcessEnv): RoutingEngine {
  const name = env.ROUTING_ENGINE || 'embedded';
  switch (name) {
    case 'embedded':
      return createEmbeddedRouter();
    case 'amazon-location':
      return lazyAmazonLocationRouter(env.AWS_REGION ? { region: env.AWS_REGION } : {});
    default:
      throw new Error(
        `ROUTING_ENGINE must be one of ${ROUTING_ENGINES.map((engine) => `'${engine}'`).join(', ')} ` +
          `(or unset for 'embedded'); got '${name}'.`,
      );
  }
}

/**
 * The Amazon Location adapter, imported with its SDK client (~55 KB minified) on the first route:
 * a function's cold start should not load a client it may never call (a function that does not
 * route, or any function on the embedded engine). In a Lambda bundle the adapter is a chunk of its own (scripts/bundle-functions.ts).
 */
function lazyAmazonLocationRouter(options: AmazonLocationRouterOptions): RoutingEngine {
  let router: Promise<RoutingEngine> | undefined;
  return {
    route: async (request) => {
      router ??= import('./amazon-location-router.ts').then(({ createAmazonLocationRouter }) =>
        createAmazonLocationRouter(options),
      );
      return (await router).route(request);
    },
  };
}
