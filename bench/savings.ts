/**
 * How much the plan saves against "fill to full at the nearest station whenever the tank falls
 * below 25%", over random long-haul trips on the embedded network and catalog, for a typical
 * class-8 truck (200-gallon tanks, 6.5 mpg, starting at a random 25–90%, arriving with 20%).
 */
import { pathToFileURL } from 'node:url';
import { planFuel } from '../shared/domain/fuel-plan/index.ts';
import { fuelCandidates } from '../shared/domain/stations/fuel-candidates.ts';
import { corridorStations } from '../shared/geo/corridor.ts';
import { computeEmbeddedRoute } from '../shared/geo/embedded-router.ts';
import { loadHighwayGraph } from '../shared/geo/highway-graph.ts';
import { StationIndex } from '../shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '../shared/geo/synthetic-catalog.ts';
import { seededRandom } from '../test/support/seeded-random.ts';

export interface SavingsBench {
  savings_vs_fill_at_quarter_percent: number;
  savings_trips: number;
  savings_trips_compared: number;
}

const DISCOUNTS = { "Love's": 12, 'Pilot Flying J': 15 };

export function benchSavings(trips = 200): SavingsBench {
  const random = seededRandom(7);
  const nowMs = Date.now();
  const index = new StationIndex('embedded', buildSyntheticCatalog(nowMs));
  const nodes = loadHighwayGraph().nodes;
  const percents: number[] = [];
  let attempted = 0;
  while (attempted < trips) {
    const a = nodes[Math.floor(random() * nodes.length)];
    const b = nodes[Math.floor(random() * nodes.length)];
    if (!a || !b || a === b) continue;
    const route = computeEmbeddedRoute({ origin: a, destination: b });
    if (route.distanceMiles < 500) continue;
    attempted++;
    const plan = planFuel({
      routeMiles: route.distanceMiles,
      destinationName: b.name,
      stations: fuelCandidates(corridorStations(index, route, 2), DISCOUNTS, nowMs),
      tankGallons: 200,
      mpg: 6.5,
      currentFuelGallons: 200 * (0.25 + random() * 0.65),
      minArrivalGallons: 40,
    });
    if (plan.savingsVsBaseline) percents.push(plan.savingsVsBaseline.percent);
  }
  const mean = percents.reduce((sum, p) => sum + p, 0) / Math.max(1, percents.length);
  return {
    savings_vs_fill_at_quarter_percent: Math.round(mean * 100) / 100,
    savings_trips: attempted,
    savings_trips_compared: percents.length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(benchSavings());
