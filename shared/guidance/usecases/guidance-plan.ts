import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import { truckFor } from '#shared/fleets/usecases/truck-profiles.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { treatmentFor } from '#shared/fuel-tax/domain/treatment.ts';
import type { FuelTaxRatesProvider } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { corridorStations } from '#shared/geo/corridor.ts';
import { decodeRoutePolyline } from '#shared/geo/polyline.ts';
import { roadMilesAlong } from '#shared/geo/road-miles.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import type { RouteLine, RouteTruck, RoutingEngine } from '#shared/geo/routing-engine.ts';
import type { CatalogProvider } from '#shared/stations/usecases/station-catalog.ts';
import type { GuidanceUpdate } from '../domain/announcement.ts';
import { GUIDANCE_POLICY } from '../domain/policy.ts';
import { replanBeforeRouting, replanOnRoute } from '../domain/replan-policy.ts';
import type { GuidanceSession } from '../domain/session.ts';
import type { VehicleSnapshot } from '../domain/snapshot.ts';
import type { CachedRoute, GuidanceRouteStore } from '../store/guidance-routes.ts';

export interface GuidancePlanDeps {
  router: RoutingEngine;
  catalog: CatalogProvider;
  /** The state diesel tax rates in force, and the fleet whose fuel_tax_treatment prices the plan. */
  fuelTaxes: FuelTaxRatesProvider;
  /** The fleet: its fuel card program (discounts, the stations a plan may recommend) and tax basis. */
  fleets: Pick<FleetStore, 'get'>;
  routes: GuidanceRouteStore;
}

/**
 * Processing time, for how long a stored route is kept; plans are made at the event time they are
 * given (the breadcrumb's recorded_at), which for a replayed day lies in the past.
 */
type Clock = { now?: () => number };

/**
 * One guidance cycle: the session brought up to date with the vehicle's position and fuel. Routes
 * (or reuses the cached route while the vehicle stays on it), plans the cheapest purchases on the
 * remaining route with the fuel plan of POST /v1/routes, and says what to announce:
 * guidance.updated only when the stop set changed materially, guidance.stop_approaching once per
 * stop. A vehicle dwelling at a recommended stop keeps its plan until it leaves (unless a skip
 * forces a new one); one within the destination radius ends the session.
 */
export async function replan(
  deps: GuidancePlanDeps & Clock,
  fleetId: string,
  session: GuidanceSession,
  snapshot: VehicleSnapshot,
  nowMs: number,
): Promise<GuidanceUpdate> {
  const step = replanBeforeRouting(fleetId, session, snapshot, nowMs);
  if (step.kind === 'decided') return step.update;
  // One read of the fleet item: its default truck, its fuel card program and its tax treatment.
  const fleet = await deps.fleets.get(fleetId);
  const { line, distanceMiles, progressMiles, offRouteMiles, revision } = await routeFor(
    deps,
    fleetId,
    session,
    {
      position: step.position,
      headingDegrees: snapshot.headingDegrees ?? null,
      truck: truckFor(snapshot.vehicle, fleet).profile,
    },
    nowMs,
  );
  const [index, taxes] = await Promise.all([deps.catalog.current(), deps.fuelTaxes.current()]);
  const program = fleet?.fuelProgram ?? NO_FUEL_PROGRAM;
  const corridor = corridorStations(index, line, GUIDANCE_POLICY.corridorWidthMiles);
  // Where the previous cycle's position lies on this route: whether it was before a stop's point.
  const previousProgressMiles = session.position
    ? projectOntoRoute(line, session.position).milesAlongRoute
    : null;
  const update = replanOnRoute(
    fleetId,
    session,
    step,
    {
      corridor,
      distanceMiles,
      progressMiles,
      vehicleOffRouteMiles: offRouteMiles,
      previousProgressMiles,
      program,
      // The vehicle's override (a truck that is not IFTA-qualified) wins over the fleet's setting.
      pricing: { taxes, treatment: treatmentFor(fleet, snapshot.vehicle) },
    },
    nowMs,
  );
  // The session names the route it was planned on: the next cycle finds it by that revision.
  return { ...update, session: { ...update.session, routeRevision: revision } };
}

/**
 * The remaining route: the session's while the vehicle stays on it, else a new one from here, on
 * in the direction the truck is driving, for the vehicle's truck profile, stored under a new
 * revision. A route stored before revisions is stored again under one.
 */
async function routeFor(
  deps: GuidancePlanDeps & Clock,
  fleetId: string,
  session: GuidanceSession,
  from: {
    position: { latitude: number; longitude: number };
    headingDegrees: number | null;
    truck: RouteTruck;
  },
  nowMs: number,
): Promise<{
  line: RouteLine;
  distanceMiles: number;
  progressMiles: number;
  offRouteMiles: number;
  revision: number;
}> {
  const { vehicleId } = session;
  const { position } = from;
  const cached = await deps.routes.get(fleetId, vehicleId, session.id, session.routeRevision ?? null);
  if (cached) {
    const line = lineOf(cached);
    const projection = projectOntoRoute(line, position);
    if (projection.offRouteMiles <= GUIDANCE_POLICY.offRouteRerouteMiles) {
      const revision =
        cached.revision ?? (await storeRevision(deps, fleetId, { ...cached, vehicleId }, nowMs, nowMs));
      return {
        line,
        distanceMiles: cached.distanceMiles,
        progressMiles: projection.milesAlongRoute,
        offRouteMiles: projection.offRouteMiles,
        revision,
      };
    }
  }
  const route = await deps.router.route({
    origin: position,
    destination: session.destination,
    originHeadingDegrees: from.headingDegrees,
    truck: from.truck,
  });
  // Never the revision being left, even re-routed within its millisecond.
  const revision = await storeRevision(
    deps,
    fleetId,
    { sessionId: session.id, vehicleId, ...routeFields(route) },
    Math.max(nowMs, (session.routeRevision ?? 0) + 1),
    nowMs,
  );
  return { line: route, distanceMiles: route.distanceMiles, progressMiles: 0, offRouteMiles: 0, revision };
}

/** Stores the route under the first revision from `from` on that no other cycle took; returns it. */
async function storeRevision(
  deps: Pick<GuidancePlanDeps, 'routes'> & Clock,
  fleetId: string,
  route: Omit<CachedRoute, 'revision'> & { vehicleId: string },
  from: number,
  nowMs: number,
): Promise<number> {
  const { vehicleId, ...stored } = route;
  let revision = from;
  const storedAtMs = Math.max(nowMs, deps.now?.() ?? nowMs);
  while (!(await deps.routes.put(fleetId, vehicleId, { ...stored, revision }, storedAtMs))) revision += 1;
  return revision;
}

const routeFields = (route: { polyline: string; distanceMiles: number; durationMinutes: number }) => ({
  polyline: route.polyline,
  distanceMiles: route.distanceMiles,
  durationMinutes: route.durationMinutes,
});

/**
 * A stored polyline as a line of the route's road miles (a trip's route too), point for point as
 * the route measured them (road-miles.ts), ending exactly at its stored distance: a line the
 * embedded engine drew reads its own miles, any other is spread in proportion to drawn length.
 */
export function lineOf(cached: Pick<CachedRoute, 'polyline' | 'distanceMiles'>): RouteLine {
  const line = roadMilesAlong(decodeRoutePolyline(cached.polyline));
  const measured = line.cumulativeMiles.at(-1) ?? 0;
  const scale = measured > 0 ? cached.distanceMiles / measured : 1;
  return { points: line.points, cumulativeMiles: line.cumulativeMiles.map((m) => m * scale) };
}
