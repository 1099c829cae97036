/**
 * Fuel plan benchmark: the optimizer's latency on a long-haul route and its gap against the
 * exhaustive solver on small random instances, both on effective prices (stations spread over five
 * states with their diesel tax; the small instances under both treatments). `npx tsx bench/fuel-plan.ts` prints a table;
 * `benchFuelPlan()` returns the numbers for `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  type CandidateStation,
  type FuelPlanInput,
  optimizeFuelPurchases,
  planFuel,
  prepareFuelProblem,
  solveFuelPlanExhaustively,
} from '#shared/fuel-plan/domain/index.ts';
import { seededRandom } from '#test/support/seeded-random.ts';
import { percentileMs } from './measure.ts';

export interface FuelPlanBench {
  /** planFuel end to end (optimizer, baseline, reasons) on a 3,500-mile route with 500 stations. */
  optimizer_p50_ms: number;
  optimizer_p95_ms: number;
  /** Largest (optimizer − exhaustive) / exhaustive cost over the small instances, in percent. */
  optimizer_gap_vs_exhaustive_max_percent: number;
  /** Small instances compared with the exhaustive solver (1,000 of them need a stop). */
  instances: number;
}

const LONG_ROUTES = 20;
const WARM_UP_RUNS = 50;
const TIMED_RUNS = 200;
const SMALL_INSTANCES_WITH_STOPS = 1_000;

/** Border states of the I-80/I-90 corridor with their shipped diesel tax: stations spread over them. */
const STATES = [
  { state: 'PA', stateTax: 0.741 },
  { state: 'OH', stateTax: 0.47 },
  { state: 'IN', stateTax: 0.61 },
  { state: 'IL', stateTax: 0.74 },
  { state: 'IA', stateTax: 0.325 },
] as const;
const someState = (random: () => number) => STATES[Math.floor(random() * STATES.length)] ?? STATES[0];

const CHAINS = [
  { chain: 'Pilot Flying J', discount: 0.12 },
  { chain: "Love's", discount: 0.1 },
  { chain: 'TA Petro', discount: 0.08 },
  { chain: 'Independent', discount: 0 },
] as const;

/**
 * A long-haul trip: 3,500 miles, 500 truck stops at random points, prices drifting by region around
 * $3.80 with ±25 cents of station spread, a per-chain fleet discount, detours mostly under 2 miles,
 * one stop in ten stale, each in one of five states (its tax credited: `ifta`). A 300-gal tank (2 × 150) at 6.5 mpg, half full, 20% on arrival.
 */
export function longHaulInput(random: () => number): FuelPlanInput {
  const routeMiles = 3_500;
  const stations: CandidateStation[] = Array.from({ length: 500 }, (_, index) => {
    const milesAlongRoute = Math.round(random() * routeMiles * 10) / 10;
    const regional = 3.8 + 0.3 * Math.sin(milesAlongRoute / 600);
    const { chain, discount } = CHAINS[Math.floor(random() * CHAINS.length)] ?? CHAINS[0];
    return {
      id: `stn_${index}`,
      name: `${chain} #${index}`,
      chain,
      milesAlongRoute,
      detourMiles: Math.round((random() < 0.8 ? random() * 2 : 2 + random() * 8) * 10) / 10,
      pricePerGallon: Math.round((regional + (random() - 0.5) * 0.5) * 100) / 100,
      discountPerGallon: discount,
      isStale: random() < 0.1,
      ...someState(random),
    };
  });
  return {
    routeMiles,
    destinationName: 'Destination',
    stations,
    tankGallons: 300,
    mpg: 6.5,
    currentFuelGallons: 150,
    minArrivalGallons: 60,
    taxTreatment: 'ifta',
  };
}

/** A small instance the exhaustive solver can finish: up to 5 stations, a tank of 1–2.5 gal. */
export function smallInput(random: () => number): FuelPlanInput {
  const tankGallons = Math.round((1 + random() * 1.5) * 10) / 10;
  const mpg = Math.round((2 + random() * 4) * 10) / 10;
  const routeMiles = Math.round(random() * tankGallons * mpg * 2.5 * 10) / 10;
  const stations: CandidateStation[] = Array.from({ length: Math.floor(random() * 6) }, (_, index) => ({
    id: `s${index}`,
    name: `Station ${index}`,
    milesAlongRoute: Math.round(random() * routeMiles * 10) / 10,
    detourMiles: random() < 0.5 ? 0 : Math.round(random() * 10) / 10,
    pricePerGallon: Math.round((3 + random()) * 100) / 100,
    discountPerGallon: random() < 0.5 ? 0 : 0.1,
    isStale: random() < 0.2,
    ...someState(random),
  }));
  return {
    routeMiles,
    destinationName: 'Destination',
    stations,
    tankGallons,
    mpg,
    currentFuelGallons: Math.round(random() * tankGallons * 10) / 10,
    minArrivalGallons: Math.round(random() * tankGallons * 3) / 10,
    reserveGallons: Math.round(random() * tankGallons * 2) / 10,
    minPurchaseGallons: Math.round(random() * tankGallons * 5) / 10,
    taxTreatment: random() < 0.5 ? 'ifta' : 'pump',
  };
}

/** Runs both measurements; about a second on these machines. */
export function benchFuelPlan(): FuelPlanBench {
  const random = seededRandom(20_261_121);
  const routes = Array.from({ length: LONG_ROUTES }, () => longHaulInput(random));
  for (let run = 0; run < WARM_UP_RUNS; run++) planFuel(routes[run % LONG_ROUTES] as FuelPlanInput);
  const timings: number[] = [];
  for (let run = 0; run < TIMED_RUNS; run++) {
    const input = routes[run % LONG_ROUTES] as FuelPlanInput;
    const started = performance.now();
    planFuel(input);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);

  // Compare until 1,000 instances needed at least one stop; the infeasible and no-stop ones met on
  // the way are compared too (feasibility must agree) and counted in `instances`.
  let maxGap = 0;
  let instances = 0;
  let withStops = 0;
  while (withStops < SMALL_INSTANCES_WITH_STOPS) {
    const problem = prepareFuelProblem(smallInput(random));
    const optimized = optimizeFuelPurchases(problem);
    const exhaustive = solveFuelPlanExhaustively(problem);
    instances++;
    if (optimized.feasible !== exhaustive.feasible) {
      maxGap = Number.POSITIVE_INFINITY;
    } else if (optimized.feasible && exhaustive.feasible && exhaustive.objective > 0) {
      withStops++;
      maxGap = Math.max(maxGap, ((optimized.objective - exhaustive.objective) / exhaustive.objective) * 100);
    }
  }

  return {
    optimizer_p50_ms: percentileMs(timings, 0.5),
    optimizer_p95_ms: percentileMs(timings, 0.95),
    // Float noise of the two sums (1e-14 %) is not a gap.
    optimizer_gap_vs_exhaustive_max_percent: maxGap < 1e-9 ? 0 : maxGap,
    instances,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = benchFuelPlan();
  console.table(Object.entries(result).map(([metric, value]) => ({ metric, value })));
}
