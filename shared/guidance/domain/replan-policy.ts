import { guidanceUpdatedEvent } from '#shared/events/domain/event-payloads.ts';
import {
  DEFAULT_MIN_PURCHASE_GALLONS,
  DEFAULT_RESERVE_FRACTION,
  planWithinProgram,
} from '#shared/fuel-plan/domain/index.ts';
import type { FuelProgramShortfall } from '#shared/fuel-plan/domain/types.ts';
import { type FuelProgram, mayRecommend } from '#shared/fuel-programs/domain/program.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { fuelCandidates, type StationOnRoute } from '#shared/stations/domain/fuel-candidates.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { announce, type GuidanceUpdate } from './announcement.ts';
import { choosePlan } from './plan-choice.ts';
import { GUIDANCE_POLICY } from './policy.ts';
import {
  guidanceStopOf,
  nearestReachable,
  type PlannedPurchase,
  type StopPricing,
} from './recommended-stops.ts';
import { endSession, type FuelReading, type GuidanceSession, phaseForStops } from './session.ts';
import type { VehicleSnapshot } from './snapshot.ts';
import { approachTo } from './stop-approach.ts';

/** A session that has to be planned on its remaining route: everything the plan needs but the route. */
export interface RouteNeeded {
  kind: 'route_needed';
  /** The session brought up to date with the vehicle's position and fuel. */
  base: GuidanceSession;
  position: { latitude: number; longitude: number };
  fuel: FuelReading;
  tankGallons: number;
  mpg: number;
  /** Stations the vehicle departed from in the breadcrumbs of this cycle: the next plan starts after them. */
  leftStationIds: readonly string[];
  /** A fueling was detected in this cycle: nothing shown before it is kept. */
  refueled: boolean;
}

/**
 * Everything a replan decides before it needs a route: nothing for an ended session; waiting for
 * a position or a fuel level; the end at the destination; the plan kept while the vehicle dwells
 * at a recommended stop (unless a skip forces a new one). Otherwise the route is needed.
 */
export function replanBeforeRouting(
  fleetId: string,
  session: GuidanceSession,
  snapshot: VehicleSnapshot,
  nowMs: number,
): { kind: 'decided'; update: GuidanceUpdate } | RouteNeeded {
  const decided = (update: GuidanceUpdate) => ({ kind: 'decided' as const, update });
  if (session.status !== 'active') return decided({ session, events: [] });
  const { position, fuel, vehicle } = snapshot;
  const base: GuidanceSession = {
    ...session,
    position,
    fuel,
    ...(snapshot.fuelAssumption ? { fuelAssumption: snapshot.fuelAssumption } : {}),
    updatedAtMs: nowMs,
  };

  if (!position) {
    return decided(
      announce(fleetId, session, {
        ...base,
        phase: 'awaiting_position',
        stops: [],
        planReason: null,
        ...noPlan,
      }),
    );
  }
  if (haversineMiles(position, session.destination) <= GUIDANCE_POLICY.destinationRadiusMiles) {
    const ended = { ...endSession(base, 'arrived', nowMs), remainingMiles: 0 };
    // A session started at its destination is still announced before it ends.
    const created =
      session.revision === 0 ? [guidanceUpdatedEvent(fleetId, { ...base, revision: 1 }, 'created')] : [];
    return decided({ session: ended, events: [...created, guidanceUpdatedEvent(fleetId, ended, 'cleared')] });
  }
  const tank = vehicle.tankSizeGallons;
  const mpg = vehicle.estimatedMpg;
  // A level is always known with tank and mpg (reported, projected or assumed: fuel-level.ts).
  if (!fuel || tank === null || mpg === null) {
    return decided(
      announce(fleetId, session, {
        ...base,
        phase: 'awaiting_fuel_level',
        stops: [],
        ...noPlan,
        planReason: `vehicle ${vehicle.id} has no tank_size_gallons or estimated_mpg; set them with PATCH /v1/vehicles/${vehicle.id}`,
      }),
    );
  }
  const dwelling = snapshot.dwellingAtStationId;
  if (dwelling && !session.forceReplan && session.stops.some((s) => s.stationId === dwelling)) {
    return decided(announce(fleetId, session, { ...base, phase: 'at_stop' }));
  }
  return {
    kind: 'route_needed',
    base,
    position,
    fuel,
    tankGallons: tank,
    mpg,
    leftStationIds: snapshot.leftStationIds ?? [],
    refueled: snapshot.refueled ?? false,
  };
}

/** The shortfall with its station's coordinates, for the session to show without the catalog. */
function placed(
  shortfall: FuelProgramShortfall | null,
  stations: ReadonlyMap<string, Station>,
): FuelProgramShortfall | null {
  const stop = shortfall?.nearestAcceptedStop;
  const station = stop && stations.get(stop.stationId);
  if (!shortfall || !stop || !station) return shortfall;
  return {
    ...shortfall,
    nearestAcceptedStop: { ...stop, latitude: station.latitude, longitude: station.longitude },
  };
}

/** A session waiting for what a plan needs has no plan status. */
const noPlan = { planStatus: null, fuelProgramShortfall: null } as const;

/** The remaining route as the plan sees it, with the fleet's prices. */
export interface RouteAhead {
  /** Stations within the corridor of the whole route, miles counted from the route's start. */
  corridor: readonly StationOnRoute[];
  distanceMiles: number;
  /** How far along the route the vehicle is. */
  progressMiles: number;
  /** How far the vehicle is from its foot on the route (0 on a route just computed from it). */
  vehicleOffRouteMiles?: number;
  /** How far along this route the vehicle's position at the previous cycle projects; null when unknown. */
  previousProgressMiles?: number | null;
  /** The fleet's fuel card program as read for this cycle: its discounts, and where plans may stop. */
  program: FuelProgram;
  /** The state diesel tax table in force and how this vehicle values a gallon. */
  pricing: StopPricing;
}

/**
 * The cheapest purchases on the remaining route (with the fuel plan of POST /v1/routes, kept
 * stable by {@link choosePlan}), skipped stations left out; when no plan reaches the destination,
 * the nearest station in range as an urgent stop. The fleet's fuel program is honoured
 * (planWithinProgram): under `required` a refused station is never a stop, not even the urgent one,
 * and when only the program stands in the way the session says so (`no_accepted_station_in_range`:
 * the accepted stops up to the last workable fill with their phase, or phase `cannot_reach` and no
 * stops when no accepted stop is reachable). While the vehicle heads to its first stop
 * ({@link approachTo}: off the route towards the station, or at it) the plan is held, so a station
 * whose point on the route the vehicle now projects past is not dropped as "behind". A station the
 * vehicle has just departed from is neither kept nor planned again: the plan starts afresh from
 * the new level.
 */
export function replanOnRoute(
  fleetId: string,
  session: GuidanceSession,
  needed: RouteNeeded,
  route: RouteAhead,
  nowMs: number,
): GuidanceUpdate {
  const { base, fuel, tankGallons: tank, mpg } = needed;
  const { progressMiles, program, pricing } = route;
  const remainingMiles = Math.max(0, route.distanceMiles - progressMiles);
  const left = new Set(needed.leftStationIds);
  const held = holdWhileHeadingToStop(fleetId, session, needed, route, left, program);
  if (held) return held;
  const skipped = new Set(session.skipped.map((s) => s.stationId));
  const ahead = route.corridor
    .filter(
      (c) => c.milesAlongRoute >= progressMiles && !skipped.has(c.station.id) && !left.has(c.station.id),
    )
    .map((c) => ({ ...c, milesAlongRoute: c.milesAlongRoute - progressMiles }));
  const stations = new Map(ahead.map((c) => [c.station.id, c.station]));
  const fuelGallons = (fuel.percent / 100) * tank;
  // After a skip, a departure or a fill (the old stops were planned for the old level), nothing
  // is kept: the plan starts afresh.
  const shown =
    session.forceReplan || left.size > 0 || needed.refueled ? [] : session.stops.map((s) => s.stationId);
  const plan = planWithinProgram(
    {
      reserveGallons: DEFAULT_RESERVE_FRACTION * tank,
      minPurchaseGallons: DEFAULT_MIN_PURCHASE_GALLONS,
      routeMiles: remainingMiles,
      destinationName: session.destination.name ?? 'the destination',
      stations: fuelCandidates(ahead, program, pricing.taxes, nowMs),
      taxTreatment: pricing.treatment,
      tankGallons: tank,
      mpg,
      currentFuelGallons: fuelGallons,
      minArrivalGallons: (session.minArrivalFuelPercent / 100) * tank,
    },
    program.rule,
    (input) => choosePlan(input, shown),
  );
  const toStop = (stop: PlannedPurchase) =>
    guidanceStopOf(session, stations.get(stop.stationId) as Station, stop, program, fuel, nowMs, pricing);
  const planned = {
    remainingMiles: roundToTenth(remainingMiles),
    forceReplan: false,
    planUpdatedAtMs: nowMs,
    planStatus: plan.status,
    fuelProgramShortfall: placed(plan.fuelProgramShortfall, stations),
  };

  if (plan.status === 'no_accepted_station_in_range') {
    // The accepted stops up to the last workable fill, if any: the driver still goes there, and
    // the phase follows those stops; with none the truck cannot reach anything accepted.
    const stops = plan.stops.map(toStop);
    return announce(fleetId, session, {
      ...base,
      ...planned,
      phase: stops.length > 0 ? phaseForStops(stops) : 'cannot_reach',
      stops,
      planReason: plan.reason,
      projectedArrivalFuelPercent: null,
    });
  }
  if (plan.status === 'infeasible') {
    const urgent = nearestReachable(
      plan,
      ahead.filter((c) => mayRecommend(program, c.station.chain)),
      fuelGallons,
      tank,
      mpg,
      session.destination.name,
      nowMs,
      session.forceReplan || left.size > 0 || needed.refueled ? null : (session.stops[0]?.stationId ?? null),
    );
    return announce(fleetId, session, {
      ...base,
      ...planned,
      phase: 'cannot_reach',
      stops: urgent ? [toStop(urgent)] : [],
      planReason: urgent ? plan.reason : `${plan.reason} No station is within reach on the route.`,
      projectedArrivalFuelPercent: null,
    });
  }
  const stops = plan.stops.map(toStop);
  return announce(fleetId, session, {
    ...base,
    ...planned,
    phase: phaseForStops(stops),
    stops,
    planReason: plan.reason,
    projectedArrivalFuelPercent:
      plan.arrivalFuelGallons === null ? null : roundToTenth((plan.arrivalFuelGallons / tank) * 100),
  });
}

/**
 * The plan as it was, while the vehicle heads to its first stop (or is at it, not yet settled as
 * an arrival): the stop stays the target and stays watched, so the arrival, the fill and the
 * departure are judged against it. Miles ahead are brought up to date (0 once its point on the
 * route is passed). A skip (forceReplan) always replans, and so does a stop the fleet's program
 * now refuses (a program made `required` while the truck heads there).
 */
function holdWhileHeadingToStop(
  fleetId: string,
  session: GuidanceSession,
  needed: RouteNeeded,
  route: RouteAhead,
  left: ReadonlySet<string>,
  program: FuelProgram,
): GuidanceUpdate | null {
  const target = session.stops[0];
  if (!target || session.forceReplan || left.has(target.stationId)) return null;
  if (!mayRecommend(program, target.chain)) return null;
  const pointOf = (stationId: string) =>
    route.corridor.find((c) => c.station.id === stationId)?.milesAlongRoute ?? null;
  const targetOnRoute = route.corridor.find((c) => c.station.id === target.stationId);
  const approach = approachTo(target, {
    position: needed.position,
    previousPosition: session.position,
    progressMiles: route.progressMiles,
    vehicleOffRouteMiles: route.vehicleOffRouteMiles ?? 0,
    previousProgressMiles: route.previousProgressMiles ?? null,
    stationMilesAlongRoute: targetOnRoute?.milesAlongRoute ?? null,
    stationOffRouteMiles: targetOnRoute?.offRouteMiles ?? null,
    nearestOtherStationMiles: route.corridor.reduce<number | null>((nearest, c) => {
      if (c.station.id === target.stationId) return nearest;
      const miles = haversineMiles(needed.position, c.station);
      return nearest === null || miles < nearest ? miles : nearest;
    }, null),
  });
  if (!approach) return null;
  const stops = session.stops.map((stop) => {
    const point = pointOf(stop.stationId);
    return point === null
      ? stop
      : { ...stop, milesAhead: roundToTenth(Math.max(0, point - route.progressMiles)) };
  });
  return announce(fleetId, session, {
    ...needed.base,
    phase: session.phase === 'cannot_reach' ? 'cannot_reach' : 'approaching_stop',
    stops,
    remainingMiles: roundToTenth(Math.max(0, route.distanceMiles - route.progressMiles)),
  });
}
