/**
 * What the plan saves against its counterfactual (the mean price of the stations in reach for each
 * purchase, on the plan's basis), over random long-haul trips on the embedded network and catalog,
 * for a typical class-8 truck (200-gallon tanks, 6.5 mpg, starting at a random 25–90%, arriving with
 * 20%), on the default basis (`ifta`).
 */

import { pathToFileURL } from 'node:url';
import { type FuelPlanInput, planFuel } from '#shared/fuel-plan/domain/index.ts';
import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { corridorStations } from '#shared/geo/corridor.ts';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '#shared/geo/synthetic-catalog.ts';
import { fuelCandidates } from '#shared/stations/domain/fuel-candidates.ts';
import { seededRandom } from '#test/support/seeded-random.ts';
import { FUEL_PROGRAM } from './trip.ts';

export interface SavingsBench {
  savings_vs_counterfactual_percent: number;
  savings_trips: number;
  savings_trips_compared: number;
}

/** A long-haul trip as the fuel plan takes it (treatment left to the caller), and the states its stations lie in. */
export interface LongHaulTrip {
  input: Omit<FuelPlanInput, 'taxTreatment'>;
  states: ReadonlySet<string>;
}

/**
 * Seeded random trips of at least 500 road miles between nodes of the embedded network, priced by
 * the synthetic catalog with a fleet's card discounts and the shipped state diesel tax table.
 */
export function* longHaulTrips(seed: number, nowMs: number): Generator<LongHaulTrip> {
  const random = seededRandom(seed);
  const index = new StationIndex('embedded', buildSyntheticCatalog(nowMs));
  const nodes = loadHighwayGraph().nodes;
  while (true) {
    const a = nodes[Math.floor(random() * nodes.length)];
    const b = nodes[Math.floor(random() * nodes.length)];
    if (!a || !b || a === b) continue;
    const route = computeEmbeddedRoute({ origin: a, destination: b });
    if (route.distanceMiles < 500) continue;
    const corridor = corridorStations(index, route, 2);
    yield {
      input: {
        routeMiles: route.distanceMiles,
        destinationName: b.name,
        stations: fuelCandidates(corridor, FUEL_PROGRAM, SHIPPED_FUEL_TAX_TABLE, nowMs),
        tankGallons: 200,
        mpg: 6.5,
        currentFuelGallons: 200 * (0.25 + random() * 0.65),
        minArrivalGallons: 40,
      },
      states: new Set(corridor.map(({ station }) => station.state)),
    };
  }
}

export function benchSavings(trips = 200): SavingsBench {
  const percents: number[] = [];
  let attempted = 0;
  for (const trip of longHaulTrips(7, Date.now())) {
    if (attempted >= trips) break;
    attempted++;
    const plan = planFuel(trip.input);
    if (plan.savings) percents.push(plan.savings.percent);
  }
  const mean = percents.reduce((sum, p) => sum + p, 0) / Math.max(1, percents.length);
  return {
    savings_vs_counterfactual_percent: Math.round(mean * 100) / 100,
    savings_trips: attempted,
    savings_trips_compared: percents.length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(benchSavings());
