/**
 * Guidance recompute benchmark: how long the worker's `replan` takes for a truck on a 1,500-mile
 * trip (Dallas → Philadelphia on the embedded network, the embedded synthetic catalog), once per
 * breadcrumb as it drives. The route cache is in memory and the discounts are a constant, so the
 * figures are the computation alone, without the DynamoDB reads around it.
 * Run alone with `npx tsx bench/guidance.ts`; the suite runner imports `benchGuidance`.
 */

import { pathToFileURL } from 'node:url';
import {
  DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
  DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  type Fleet,
} from '#shared/fleets/domain/fleet.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { shippedFuelTaxRates } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { createRoutingEngine } from '#shared/geo/routing-engine-factory.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog, syntheticCatalogVersion } from '#shared/geo/synthetic-catalog.ts';
import { type GuidanceSession, startSession } from '#shared/guidance/domain/session.ts';
import type { VehicleSnapshot } from '#shared/guidance/domain/snapshot.ts';
import type { CachedRoute, GuidanceRouteStore } from '#shared/guidance/store/guidance-routes.ts';
import { type GuidancePlanDeps, replan } from '#shared/guidance/usecases/guidance-plan.ts';
import { newId } from '#shared/kernel/ids.ts';
import { percentileMs } from './measure.ts';
import { DALLAS, FUEL_PROGRAM, PERCENT_PER_MILE, PHILADELPHIA, pointAlong, TRUCK } from './trip.ts';

export interface GuidanceBench {
  /** One recompute with the cached route: the per-breadcrumb case. */
  guidance_recompute_p50_ms: number;
  guidance_recompute_p95_ms: number;
  /** A session's first recompute, which routes (and caches the route). */
  guidance_first_recompute_p50_ms: number;
  guidance_trip_miles: number;
  /** Recomputes timed with the cached route (one per road mile, a breadcrumb a minute at 60 mph). */
  guidance_recomputes: number;
}

const FLEET_ID = 'flt_BENCH';
const VEHICLE_ID = 'veh_BENCH';
const START_FUEL_PERCENT = 70;
const FIRST_RECOMPUTE_RUNS = 20;
const MINUTE_MS = 60_000;

/** The route cache the worker keeps in DynamoDB, kept in a Map. */
function memoryRouteStore(): GuidanceRouteStore {
  const routes = new Map<string, CachedRoute>();
  return {
    async get(fleetId, vehicleId, sessionId, revision) {
      return routes.get(`${fleetId}/${vehicleId}/${sessionId}/${revision}`) ?? null;
    },
    async put(fleetId, vehicleId, route) {
      const key = `${fleetId}/${vehicleId}/${route.sessionId}/${route.revision}`;
      if (routes.has(key)) return false;
      routes.set(key, route);
      return true;
    },
  };
}

const BENCH_FLEET: Fleet = {
  id: 'flt_bench',
  name: 'Bench fleet',
  externalRef: null,
  contactEmail: null,
  timezone: 'America/Chicago',
  status: 'active',
  defaultMinArrivalFuelPercent: DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  assumedDepartureFuelPercent: DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
  fuelTaxTreatment: 'ifta',
  fuelProgram: FUEL_PROGRAM,
  truckProfile: { ...UNSET_TRUCK_PROFILE },
  partnerId: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

export async function benchGuidance(): Promise<GuidanceBench> {
  const startMs = Date.now();
  const index = new StationIndex(syntheticCatalogVersion(), buildSyntheticCatalog(startMs));
  const deps: GuidancePlanDeps = {
    // `{}`: the embedded engine whatever ROUTING_ENGINE the shell holds.
    router: createRoutingEngine({}),
    catalog: { current: async () => index },
    fuelTaxes: shippedFuelTaxRates,
    // The default treatment (ifta), and the benchmark's fuel program.
    fleets: { get: async () => BENCH_FLEET },
    routes: memoryRouteStore(),
  };
  const trip = await deps.router.route({ origin: DALLAS, destination: PHILADELPHIA });
  const newSession = (nowMs: number) =>
    startSession({
      id: newId('guidance', nowMs),
      vehicleId: VEHICLE_ID,
      destination: PHILADELPHIA,
      minArrivalFuelPercent: 20,
      nowMs,
    });
  const snapshot = (miles: number, fuelPercent: number, nowMs: number): VehicleSnapshot => ({
    vehicle: { id: VEHICLE_ID, ...TRUCK },
    position: { ...pointAlong(trip, miles), recordedAtMs: nowMs },
    fuel: { percent: Math.round(fuelPercent * 10) / 10, source: 'reported', reportedAtMs: nowMs },
    dwellingAtStationId: null,
  });

  /**
   * Drives the whole trip, a breadcrumb every `stepMiles` (a minute per mile), following the plan:
   * on reaching its first stop the truck buys what the stop says. Returns each cached recompute's ms.
   */
  const drive = async (stepMiles: number): Promise<number[]> => {
    let nowMs = startMs;
    let fuel = START_FUEL_PERCENT;
    let { session } = await replan(deps, FLEET_ID, newSession(nowMs), snapshot(0, fuel, nowMs), nowMs);
    const timings: number[] = [];
    for (let miles = stepMiles; miles < trip.distanceMiles - 2; miles += stepMiles) {
      nowMs += stepMiles * MINUTE_MS;
      fuel -= stepMiles * PERCENT_PER_MILE;
      const next = session.stops[0];
      if (next && next.milesAhead <= stepMiles) {
        const gallons = next.gallonsToBuy ?? TRUCK.tankSizeGallons;
        fuel = Math.min(100, fuel + (gallons / TRUCK.tankSizeGallons) * 100);
      }
      const current: GuidanceSession = session;
      const started = performance.now();
      ({ session } = await replan(deps, FLEET_ID, current, snapshot(miles, fuel, nowMs), nowMs));
      timings.push(performance.now() - started);
      if (session.status !== 'active') break;
    }
    return timings;
  };

  // One untimed trip first: the figures describe a warm worker, not the JIT.
  await drive(10);

  // Each fresh session misses the route cache (another session id) and routes from Dallas.
  const first: number[] = [];
  for (let run = 0; run < FIRST_RECOMPUTE_RUNS; run++) {
    const nowMs = startMs + run;
    const started = performance.now();
    await replan(deps, FLEET_ID, newSession(nowMs), snapshot(0, START_FUEL_PERCENT, nowMs), nowMs);
    first.push(performance.now() - started);
  }

  const cached = await drive(1);
  return {
    guidance_recompute_p50_ms: percentileMs(cached, 0.5),
    guidance_recompute_p95_ms: percentileMs(cached, 0.95),
    guidance_first_recompute_p50_ms: percentileMs(first, 0.5),
    guidance_trip_miles: trip.distanceMiles,
    guidance_recomputes: cached.length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchGuidance());
