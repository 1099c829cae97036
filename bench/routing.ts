/**
 * Routing benchmark: p50 / p95 wall time of one embedded route over ~200 random long-haul pairs.
 * Run alone with `npx tsx bench/routing.ts`; the suite runner imports `benchRouting`.
 */
import { pathToFileURL } from 'node:url';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { seededRandom } from '#test/support/seeded-random.ts';
import { percentileMs } from './measure.ts';

/** Results in the field names `.local/bench.json` uses. */
export interface RoutingBenchmark {
  route_p50_ms: number;
  route_p95_ms: number;
}

const PAIRS = 200;
const LONG_HAUL_MILES = 500;
const RUNS_PER_PAIR = 5;
/** Ends are moved up to this far off their junction, so every route also snaps and builds local legs. */
const JITTER_DEGREES = 0.4;

/**
 * Times `computeEmbeddedRoute` (the synchronous core the async router wraps) over `PAIRS` random
 * junction pairs at least 500 straight-line miles apart, each end jittered off the network.
 * The pairs come from a fixed seed, so runs compare like with like.
 */
export function benchRouting(): RoutingBenchmark {
  const graph = loadHighwayGraph();
  const random = seededRandom(3);
  const pick = (): GeoPoint => {
    const node = graph.nodes[Math.floor(random() * graph.nodes.length)] ?? graph.nodes[0];
    if (!node) throw new Error('empty highway graph');
    return {
      latitude: node.latitude + (random() - 0.5) * JITTER_DEGREES,
      longitude: node.longitude + (random() - 0.5) * JITTER_DEGREES,
    };
  };
  const pairs: { origin: GeoPoint; destination: GeoPoint }[] = [];
  while (pairs.length < PAIRS) {
    const origin = pick();
    const destination = pick();
    if (haversineMiles(origin, destination) >= LONG_HAUL_MILES) pairs.push({ origin, destination });
  }

  // One untimed pass first: the figures describe a warm container, not the JIT compiling the router.
  for (const pair of pairs) computeEmbeddedRoute(pair);

  // Each pair's time is the median of RUNS_PER_PAIR runs: the percentiles then describe how route
  // cost varies with the route, not one-off GC pauses or a busy neighbour on a shared machine.
  const timings = pairs.map((pair) => {
    const runs = Array.from({ length: RUNS_PER_PAIR }, () => {
      const started = performance.now();
      computeEmbeddedRoute(pair);
      return performance.now() - started;
    }).sort((a, b) => a - b);
    return runs[Math.floor(RUNS_PER_PAIR / 2)] ?? Number.NaN;
  });
  timings.sort((a, b) => a - b);
  return { route_p50_ms: percentileMs(timings, 0.5), route_p95_ms: percentileMs(timings, 0.95) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(benchRouting());
}
