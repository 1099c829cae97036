import { guidanceUpdatedEvent, stopApproachingEvent } from '../domain/event-payloads.ts';
import {
  DEFAULT_MIN_PURCHASE_GALLONS,
  DEFAULT_RESERVE_FRACTION,
  planFuel,
} from '../domain/fuel-plan/index.ts';
import type { FuelPlan, FuelPlanInput, FuelStop } from '../domain/fuel-plan/types.ts';
import { GUIDANCE_POLICY } from '../domain/guidance/policy.ts';
import {
  announcedOf,
  endSession,
  type FuelReading,
  type GuidanceSession,
  type GuidanceStop,
  phaseForStops,
  type StopSetChange,
  stopSetChange,
} from '../domain/guidance/session.ts';
import { roundToTenth } from '../domain/rounding.ts';
import { fuelCandidates } from '../domain/stations/fuel-candidates.ts';
import { isPriceStale, type Station, stationPrice } from '../domain/stations/station.ts';
import type { LatestPosition } from '../domain/telematics/positions.ts';
import { currentStop, fuelEstimate, lastFix, type TrackerState } from '../domain/telematics/tracker.ts';
import type { OutboxEvent } from '../domain/tracking/outbox.ts';
import type { Vehicle } from '../domain/vehicle.ts';
import { corridorStations } from '../geo/corridor.ts';
import { haversineMiles } from '../geo/distance.ts';
import { decodeRoutePolyline } from '../geo/polyline.ts';
import { routeLineFromPoints } from '../geo/route-line.ts';
import { projectOntoRoute } from '../geo/route-projection.ts';
import type { RouteLine, RoutingEngine } from '../geo/routing-engine.ts';
import { stableTimedId } from '../platform/ids.ts';
import type { FuelDiscountStore } from '../store/fuel-discounts.ts';
import type { CachedRoute, GuidanceRouteStore } from '../store/guidance-routes.ts';
import { routeOrProblem } from './routing.ts';
import type { CatalogProvider } from './station-catalog.ts';

export interface GuidancePlanDeps {
  router: RoutingEngine;
  catalog: CatalogProvider;
  discounts: Pick<FuelDiscountStore, 'get'>;
  routes: GuidanceRouteStore;
}

/** What the plan is computed from: the vehicle as it is now. */
export interface VehicleSnapshot {
  vehicle: Pick<Vehicle, 'id' | 'tankSizeGallons' | 'estimatedMpg'>;
  position: { latitude: number; longitude: number; recordedAtMs: number } | null;
  fuel: FuelReading | null;
  /** The station the vehicle dwells at now (detection's current stop), if any. */
  dwellingAtStationId: string | null;
}

/** How many approached stops a session remembers (a trip has a handful). */
const MAX_REMEMBERED_STOPS = 20;

/**
 * The vehicle as guidance sees it: the detection state's position and fuel once it has consumed a
 * breadcrumb, else the stored latest position (a session started before the worker's first cycle).
 */
export function snapshotOf(
  vehicle: Pick<Vehicle, 'id' | 'tankSizeGallons' | 'estimatedMpg'>,
  tracker: TrackerState,
  latest: LatestPosition | null,
): VehicleSnapshot {
  const fix = lastFix(tracker);
  const estimate = fuelEstimate(tracker, { tankGallons: vehicle.tankSizeGallons, mpg: vehicle.estimatedMpg });
  const useLatest = latest !== null && (fix === null || latest.recordedAtMs > fix.recordedAtMs);
  const position = useLatest
    ? { latitude: latest.latitude, longitude: latest.longitude, recordedAtMs: latest.recordedAtMs }
    : fix && { latitude: fix.latitude, longitude: fix.longitude, recordedAtMs: fix.recordedAtMs };
  const fuel =
    useLatest && latest.fuelLevelPercent !== null
      ? { percent: latest.fuelLevelPercent, source: 'reported' as const, reportedAtMs: latest.recordedAtMs }
      : estimate && {
          percent: roundToTenth(estimate.percent),
          source: estimate.source,
          reportedAtMs: estimate.reportedAtMs,
        };
  return {
    vehicle,
    position: position ?? null,
    fuel: fuel ?? null,
    dwellingAtStationId: currentStop(tracker)?.stationId ?? null,
  };
}

/**
 * One guidance cycle: the session brought up to date with the vehicle's position and fuel. Routes
 * (or reuses the cached route while the vehicle stays on it), plans the cheapest purchases on the
 * remaining route with the fuel plan of POST /v1/routes, and says what to announce:
 * guidance.updated only when the stop set changed materially, guidance.stop_approaching once per
 * stop. A vehicle dwelling at a recommended stop keeps its plan until it leaves (unless a skip
 * forces a new one); one within the destination radius ends the session.
 */
export async function replan(
  deps: GuidancePlanDeps,
  fleetId: string,
  session: GuidanceSession,
  snapshot: VehicleSnapshot,
  nowMs: number,
): Promise<{ session: GuidanceSession; events: OutboxEvent[] }> {
  if (session.status !== 'active') return { session, events: [] };
  const { position, fuel, vehicle } = snapshot;
  const base: GuidanceSession = { ...session, position, fuel, updatedAtMs: nowMs };

  if (!position) return announce({ ...base, phase: 'awaiting_position', stops: [], planReason: null });
  if (haversineMiles(position, session.destination) <= GUIDANCE_POLICY.destinationRadiusMiles) {
    const ended = { ...endSession(base, 'arrived', nowMs), remainingMiles: 0 };
    // A session started at its destination is still announced before it ends.
    const created =
      session.revision === 0 ? [guidanceUpdatedEvent(fleetId, { ...base, revision: 1 }, 'created')] : [];
    return { session: ended, events: [...created, guidanceUpdatedEvent(fleetId, ended, 'cleared')] };
  }
  const tank = vehicle.tankSizeGallons;
  const mpg = vehicle.estimatedMpg;
  if (!fuel || tank === null || mpg === null) {
    return announce({
      ...base,
      phase: 'awaiting_fuel_level',
      stops: [],
      planReason:
        tank === null || mpg === null
          ? `vehicle ${vehicle.id} has no tank_size_gallons or estimated_mpg; set them with PATCH /v1/vehicles/${vehicle.id}`
          : 'no fuel_level_percent was ever reported; send it with the breadcrumbs',
    });
  }
  const dwelling = snapshot.dwellingAtStationId;
  if (dwelling && !session.forceReplan && session.stops.some((s) => s.stationId === dwelling)) {
    return announce({ ...base, phase: 'at_stop' });
  }

  const { line, distanceMiles, progressMiles } = await routeFor(deps, fleetId, session, position, nowMs);
  const remainingMiles = Math.max(0, distanceMiles - progressMiles);
  const [index, discounts] = await Promise.all([deps.catalog.current(), deps.discounts.get(fleetId)]);
  const skipped = new Set(session.skipped.map((s) => s.stationId));
  const ahead = corridorStations(index, line, GUIDANCE_POLICY.corridorWidthMiles)
    .filter((c) => c.milesAlongRoute >= progressMiles && !skipped.has(c.station.id))
    .map((c) => ({ ...c, milesAlongRoute: c.milesAlongRoute - progressMiles }));
  const stations = new Map(ahead.map((c) => [c.station.id, c.station]));
  const fuelGallons = (fuel.percent / 100) * tank;
  const plan = choosePlan(
    {
      reserveGallons: DEFAULT_RESERVE_FRACTION * tank,
      minPurchaseGallons: DEFAULT_MIN_PURCHASE_GALLONS,
      routeMiles: remainingMiles,
      destinationName: session.destination.name ?? 'the destination',
      stations: fuelCandidates(ahead, discounts, nowMs),
      tankGallons: tank,
      mpg,
      currentFuelGallons: fuelGallons,
      minArrivalGallons: (session.minArrivalFuelPercent / 100) * tank,
    },
    session.forceReplan ? [] : session.stops.map((s) => s.stationId),
  );
  const toStop = (stop: Omit<FuelStop, 'cost'> & { reason: string }): GuidanceStop => {
    const station = stations.get(stop.stationId) as Station;
    const price = stationPrice(station, discounts);
    const id = stopIdOf(session, stop.stationId);
    const previous = session.stops.find((s) => s.id === id);
    return {
      id,
      stationId: station.id,
      name: station.name,
      chain: station.chain,
      latitude: station.latitude,
      longitude: station.longitude,
      address: station.address,
      milesAhead: roundToTenth(stop.milesAlongRoute),
      detourMiles: roundToTenth(2 * stop.detourMiles),
      // Gallons from an estimated level would be a guess presented as an instruction.
      gallonsToBuy: fuel.source === 'reported' ? stop.gallons : null,
      price: price.price,
      discount: price.discount,
      netPrice: price.net,
      priceIsStale: stop.priceIsStale,
      reason: stop.reason,
      recommendedAtMs: previous?.recommendedAtMs ?? nowMs,
      acknowledgedAtMs: previous?.acknowledgedAtMs ?? null,
    };
  };

  if (plan.status === 'infeasible') {
    const urgent = nearestReachable(plan, ahead, fuelGallons, tank, mpg, session.destination.name, nowMs);
    return announce({
      ...base,
      phase: 'cannot_reach',
      stops: urgent ? [toStop(urgent)] : [],
      planReason: urgent ? plan.reason : `${plan.reason} No station is within reach on the route.`,
      remainingMiles: roundToTenth(remainingMiles),
      projectedArrivalFuelPercent: null,
      forceReplan: false,
      planUpdatedAtMs: nowMs,
    });
  }
  const stops = plan.stops.map(toStop);
  return announce({
    ...base,
    phase: phaseForStops(stops),
    stops,
    planReason: plan.reason,
    remainingMiles: roundToTenth(remainingMiles),
    projectedArrivalFuelPercent:
      plan.arrivalFuelGallons === null ? null : roundToTenth((plan.arrivalFuelGallons / tank) * 100),
    forceReplan: false,
    planUpdatedAtMs: nowMs,
  });

  function announce(next: GuidanceSession) {
    const events: OutboxEvent[] = [];
    const nextAnnounced = announcedOf(next.stops);
    const change: StopSetChange | null =
      session.revision === 0 ? 'created' : stopSetChange(session.announced, nextAnnounced);
    let updated = next;
    if (change) {
      updated = { ...next, revision: session.revision + 1, announced: nextAnnounced };
      events.push(guidanceUpdatedEvent(fleetId, updated, change));
    }
    const first = updated.stops[0];
    if (updated.phase === 'approaching_stop' && first && !updated.approachedStopIds.includes(first.id)) {
      // Bounded: the item is rewritten every cycle; the newest ids are the ones that can recur.
      updated = {
        ...updated,
        approachedStopIds: [...updated.approachedStopIds, first.id].slice(-MAX_REMEMBERED_STOPS),
      };
      events.push(stopApproachingEvent(updated, first));
    }
    return { session: updated, events };
  }
}

/**
 * A station's stop id within a session, the same every time the plan names it (and in a cycle
 * redone after a lost race), so an acknowledgement and an announced id stay valid.
 */
export const stopIdOf = (session: Pick<GuidanceSession, 'id' | 'createdAtMs'>, stationId: string) =>
  stableTimedId('guidanceStop', session.createdAtMs, `${session.id}:${stationId}`);

/**
 * The plan guidance shows, which is not always the cheapest one of this instant:
 * - Fuel below what the reserve needs is not "cannot reach": the plan is made again without the
 *   reserve (the emergency it is kept for), and says so; only if that fails too is it infeasible.
 * - A driver who was told where to stop keeps that stop while it still works (within half the
 *   reserve) and costs at most `stickinessUsd` more than the best new plan: a plan that changes
 *   with every sloshing breadcrumb is one nobody follows.
 */
export function choosePlan(input: FuelPlanInput, currentStationIds: readonly string[]): FuelPlan {
  let reserveGallons = input.reserveGallons ?? 0;
  let best = planFuel(input);
  if (best.status === 'infeasible' && reserveGallons > 0) {
    const withoutReserve = planFuel({ ...input, reserveGallons: 0 });
    if (withoutReserve.status !== 'infeasible') {
      reserveGallons = 0;
      best = { ...withoutReserve, reason: `Below the fuel reserve: ${withoutReserve.reason}` };
    }
  }
  if (best.status === 'infeasible' || currentStationIds.length === 0) return best;
  const current = new Set(currentStationIds);
  const kept = planFuel({
    ...input,
    // Half the reserve is the band a kept stop may eat into: a gauge wobbling by a few gallons must
    // not add a splash-and-go five miles before the stop the driver is already heading for.
    reserveGallons: reserveGallons / 2,
    stations: input.stations.filter((station) => current.has(station.id)),
  });
  const keep =
    kept.status !== 'infeasible' && kept.totalCost <= best.totalCost + GUIDANCE_POLICY.stickinessUsd;
  return keep ? { ...kept, reason: reserveGallons === 0 ? best.reason : kept.reason } : best;
}

/**
 * The urgent option when no plan reaches the destination: the nearest station ahead that the fuel
 * on board reaches (the reserve may be used: this is the emergency it is kept for), filled up.
 */
function nearestReachable(
  plan: FuelPlan,
  ahead: readonly { station: Station; milesAlongRoute: number; offRouteMiles: number }[],
  fuelGallons: number,
  tank: number,
  mpg: number,
  destinationName: string | null,
  nowMs: number,
): (Omit<FuelStop, 'cost'> & { reason: string }) | null {
  const rangeMiles = fuelGallons * mpg;
  const reachable = ahead.find((c) => c.milesAlongRoute + c.offRouteMiles <= rangeMiles);
  if (!reachable) return null;
  const arrivalGallons = fuelGallons - (reachable.milesAlongRoute + reachable.offRouteMiles) / mpg;
  return {
    stationId: reachable.station.id,
    name: reachable.station.name,
    milesAlongRoute: reachable.milesAlongRoute,
    detourMiles: reachable.offRouteMiles,
    gallons: roundToTenth(tank - arrivalGallons),
    netPrice: 0,
    price: 0,
    discount: 0,
    priceIsStale: isPriceStale(reachable.station, nowMs),
    reason:
      `Urgent: the fuel on board does not reach ${destinationName ?? 'the destination'} on any plan (${plan.reason}). ` +
      `${reachable.station.name}, ${roundToTenth(reachable.milesAlongRoute)} mi ahead, is the nearest station in range: fill up there.`,
  };
}

/** The remaining route: the cached one while the vehicle stays on it, else a new one from here. */
async function routeFor(
  deps: GuidancePlanDeps,
  fleetId: string,
  session: GuidanceSession,
  position: { latitude: number; longitude: number },
  nowMs: number,
): Promise<{ line: RouteLine; distanceMiles: number; progressMiles: number }> {
  const cached = await deps.routes.get(fleetId, session.vehicleId, session.id);
  if (cached) {
    const line = lineOf(cached);
    const projection = projectOntoRoute(line, position);
    if (projection.offRouteMiles <= GUIDANCE_POLICY.offRouteRerouteMiles) {
      return { line, distanceMiles: cached.distanceMiles, progressMiles: projection.milesAlongRoute };
    }
  }
  const route = await routeOrProblem(deps.router, { origin: position, destination: session.destination });
  await deps.routes.put(
    fleetId,
    session.vehicleId,
    {
      sessionId: session.id,
      polyline: route.polyline,
      distanceMiles: route.distanceMiles,
      durationMinutes: route.durationMinutes,
    },
    nowMs,
  );
  return { line: route, distanceMiles: route.distanceMiles, progressMiles: 0 };
}

/** The cached polyline as a line whose miles add up to the route's road miles. */
function lineOf(cached: CachedRoute): RouteLine {
  const line = routeLineFromPoints(decodeRoutePolyline(cached.polyline));
  const greatCircle = line.cumulativeMiles.at(-1) ?? 0;
  const scale = greatCircle > 0 ? cached.distanceMiles / greatCircle : 1;
  return { points: line.points, cumulativeMiles: line.cumulativeMiles.map((m) => m * scale) };
}
