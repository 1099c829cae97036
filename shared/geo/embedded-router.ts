import { assertCoordinates, type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { findCheapestPath, type Terminal } from './graph-search.ts';
import {
  type Adjacency,
  type HighwayEdge,
  type HighwayGraph,
  type HighwayNode,
  loadHighwayGraph,
  type NearbyNode,
} from './highway-graph.ts';
import { encodeRoutePolyline } from './polyline.ts';
import {
  lineAheadOfFoot,
  lineBetweenFeet,
  lineFromFoot,
  locateOnRoad,
  type RoadPosition,
  roadMilesOf,
} from './road-snap.ts';
import { buildRouteLine, type RoutePiece } from './route-line.ts';
import type { RouteLeg, RouteRequest, RouteResult, RoutingEngine } from './routing-engine.ts';
import { RouteTimeoutError, RoutingUnreachableError } from './routing-errors.ts';

/**
 * Road miles per straight-line mile on the local leg between a point and the interstate network.
 * 1.3 is the upper range of published US road-network circuity studies for short rural trips
 * (typical values 1.2–1.4), so the estimate errs long, the safe side for fuel.
 */
export const LOCAL_CIRCUITY_FACTOR = 1.3;

/**
 * A point farther than this from every network node cannot be joined to it (the ocean, Hawaii at
 * ~2,400 miles, Alaska at 500+). Measured on a 0.05° grid, the lower-48 land farthest from a node
 * is the Montana Hi-Line at the Canadian border (~192 miles), then the MN/ND border (~175–185) and
 * central Nevada (~178); 200 miles reaches all of it.
 */
export const SNAP_LIMIT_MILES = 200;

/** How many nearest nodes each end may join the network at; the search picks the cheapest. */
export const SNAP_CANDIDATES = 3;

/** Average truck speed on the interstate, stops for traffic included (60 mph). */
export const INTERSTATE_SPEED_MPH = 60;

/** Average truck speed on local roads, towns and signals included (35 mph). */
export const LOCAL_SPEED_MPH = 35;

/**
 * Road miles a truck on an interstate drives on to the next exit before it can turn back, and as
 * many back to where it was. The network's junctions are cities 40–170 miles apart, exits are not in
 * it; 3 miles is the minimum spacing AASHTO's Green Book gives for rural interchanges (1 mile in
 * cities), so it errs long in towns, the safe side for fuel.
 */
export const TURNAROUND_MILES_EACH_WAY = 3;

/** What the legs call the exit a truck turns back at. */
export const TURNAROUND_PLACE = 'next exit (turn back)';

/** A leg shorter than this (about 16 m) is left out: its ends coincide at the polyline's precision. */
const MIN_LEG_MILES = 0.01;

/** Default wall-clock budget for one route; over it the engine throws `RouteTimeoutError`. */
export const DEFAULT_ROUTE_TIME_BUDGET_MS = 2_000;

/** Tuning for the embedded router; every field has a documented default. */
export interface EmbeddedRouterOptions {
  graph?: HighwayGraph;
  timeBudgetMs?: number;
  /** Millisecond clock, injectable so tests can make time pass. */
  now?: () => number;
  snapCandidates?: number;
  snapLimitMiles?: number;
}

/**
 * Routes over the embedded US Interstate graph (the default `RoutingEngine`).
 *
 * @example
 * const router = createEmbeddedRouter();
 * const route = await router.route({ origin: chicago, destination: denver });
 */
export function createEmbeddedRouter(options: EmbeddedRouterOptions = {}): RoutingEngine {
  return { route: async (request) => computeEmbeddedRoute(request, options) };
}

/**
 * The embedded router's computation, synchronous (it does no I/O): join each end to the network
 * (an end on an interstate at its foot there, the origin with a direction of travel towards the
 * junction ahead, or back to the one behind after turning at the next exit; any other at its
 * nearest nodes), A* over the interstates, then geometry,
 * legs and polyline.
 *
 * The search minimises travel time. With one interstate speed that is the shortest interstate
 * distance, and it keeps trucks on interstates rather than on estimated local roads whenever
 * an interstate connects.
 *
 * @throws RoutingUnreachableError when an end is over the snap limit from every node.
 * @throws RouteTimeoutError when the computation runs past its time budget.
 * @throws RangeError on coordinates outside latitude ±90 / longitude ±180.
 */
export function computeEmbeddedRoute(
  request: RouteRequest,
  options: EmbeddedRouterOptions = {},
): RouteResult {
  const graph = options.graph ?? loadHighwayGraph();
  const now = options.now ?? (() => performance.now());
  const budgetMs = options.timeBudgetMs ?? DEFAULT_ROUTE_TIME_BUDGET_MS;
  const snapLimitMiles = options.snapLimitMiles ?? SNAP_LIMIT_MILES;
  const candidates = options.snapCandidates ?? SNAP_CANDIDATES;
  const startedAt = now();
  const checkBudget = () => {
    const elapsed = now() - startedAt;
    if (elapsed > budgetMs) throw new RouteTimeoutError(budgetMs, elapsed);
  };

  const { origin, destination } = request;
  assertCoordinates(origin, 'origin');
  assertCoordinates(destination, 'destination');
  const originOnRoad = locateOnRoad(graph, origin, request.originHeadingDegrees);
  const destinationOnRoad = locateOnRoad(graph, destination);
  const sources = originOnRoad
    ? departures(originOnRoad)
    : snap(graph, origin, 'origin', candidates, snapLimitMiles).map((near) => atNode(graph, near));
  const targets = destinationOnRoad
    ? arrivals(destinationOnRoad)
    : snap(graph, destination, 'destination', candidates, snapLimitMiles).map((near) => atNode(graph, near));

  const heuristic = new Float64Array(graph.nodes.length).fill(Number.NaN);
  const path = findCheapestPath(graph, {
    sources,
    targets,
    edgeCost: (step) => step.edge.miles / INTERSTATE_SPEED_MPH,
    heuristic: (index) => {
      let hours = heuristic[index] ?? Number.NaN;
      if (Number.isNaN(hours)) {
        hours = haversineMiles(graph.nodes[index] as HighwayNode, destination) / INTERSTATE_SPEED_MPH;
        heuristic[index] = hours;
      }
      return hours;
    },
    onExpand: checkBudget,
  });
  const sameRoad = originOnRoad && destinationOnRoad && alongOneSegment(originOnRoad, destinationOnRoad);

  const directMiles = haversineMiles(origin, destination);
  const pieces: RoutePiece[] = [];
  const legs: RouteLeg[] = [];
  const directHours = directMiles <= snapLimitMiles ? localHours(directMiles) : Number.POSITIVE_INFINITY;
  const networkHours = Math.min(
    path?.cost ?? Number.POSITIVE_INFINITY,
    sameRoad?.cost ?? Number.POSITIVE_INFINITY,
  );
  if (Number.isFinite(directHours) && directHours <= networkHours) {
    // Close enough that the local road beats going out to the interstate and back.
    addLocal(pieces, legs, origin, destination, 'origin', 'destination');
  } else if (sameRoad && sameRoad.cost <= (path?.cost ?? Number.POSITIVE_INFINITY)) {
    addSameRoad(pieces, legs, request, sameRoad);
  } else if (path) {
    addPath(graph, pieces, legs, request, path.source, path.target, path.steps);
  } else {
    // Only a graph in pieces gets here (the bundled one is connected, a tested invariant).
    throw new RoutingUnreachableError(
      'destination',
      destination,
      targets[0]?.offNetworkMiles ?? 0,
      snapLimitMiles,
      {
        detail: 'No interstate connects the network near the origin to the network near the destination.',
      },
    );
  }
  // Origin and destination at the same spot: no leg, but still a line with two ends.
  if (pieces.length === 0) pieces.push({ geometry: [origin, destination], miles: 0 });
  checkBudget();

  const line = buildRouteLine(pieces);
  const result: RouteResult = {
    distanceMiles: roundToTenth(pieces.reduce((sum, piece) => sum + piece.miles, 0)),
    durationMinutes: roundToTenth(legs.reduce((sum, leg) => sum + leg.durationMinutes, 0)),
    polyline: encodeRoutePolyline(line.points),
    points: line.points,
    cumulativeMiles: line.cumulativeMiles,
    legs: legs.map((leg) => ({
      ...leg,
      miles: roundToTenth(leg.miles),
      durationMinutes: roundToTenth(leg.durationMinutes),
    })),
    engine: { name: 'embedded', dataVersion: graph.version },
  };
  checkBudget();
  return result;
}

/**
 * One end of the route and how it joins the network: by local road to a junction (`along`
 * absent), or by local road to its foot on an interstate and along that interstate to a junction.
 */
interface RouteEnd extends Terminal {
  /** Where the local leg meets the network, and what the legs call that place. */
  joinAt: GeoPoint;
  joinName: string;
  /** Great-circle miles from the end to where it joins the network. */
  offNetworkMiles: number;
  /** The stretch of interstate between the foot and the junction, drawn from the route's side. */
  along?: { road: HighwayEdge; geometry: GeoPoint[]; miles: number };
  /** A truck heading away from the junction first drives this on to the next exit, and back. */
  turn?: Turnaround;
}

/** The stretch from the foot on to the next exit, where the truck turns back. */
interface Turnaround {
  geometry: GeoPoint[];
  miles: number;
}

/** A snapped end: by local road to a nearby junction. */
function atNode(graph: HighwayGraph, near: NearbyNode): RouteEnd {
  return {
    node: near.node.index,
    cost: localHours(near.miles),
    joinAt: graph.nodes[near.node.index] as HighwayNode,
    joinName: placeName(near.node),
    offNetworkMiles: near.miles,
  };
}

/**
 * Where a truck on an interstate may join the search: both junctions of its segment at the miles of
 * road between the truck's foot and them. With a direction of travel the truck cannot U-turn on the
 * interstate: it reaches the junction behind by driving on to the next exit and back
 * ({@link TURNAROUND_MILES_EACH_WAY} each way), or, when the junction ahead is nearer than that, by
 * turning there (the search's path through it).
 */
function departures(on: RoadPosition): RouteEnd[] {
  if (on.towardsTo && on.towardsFrom) return [alongEnd(on, 'to', 'origin'), alongEnd(on, 'from', 'origin')];
  const ahead = on.towardsTo ? 'to' : 'from';
  const ends = [alongEnd(on, ahead, 'origin')];
  const turn = turnaround(on, ahead);
  if (turn) {
    const behind = alongEnd(on, ahead === 'to' ? 'from' : 'to', 'origin');
    ends.push({ ...behind, cost: behind.cost + (2 * turn.miles) / INTERSTATE_SPEED_MPH, turn });
  }
  return ends;
}

/** The drive on to the next exit, or null when the junction ahead comes first (the turn is there). */
function turnaround(on: RoadPosition, ahead: 'to' | 'from'): Turnaround | null {
  const milesAhead = ahead === 'to' ? on.milesToEnd : on.milesFromStart;
  if (milesAhead <= TURNAROUND_MILES_EACH_WAY) return null;
  const geometry = lineAheadOfFoot(on, ahead, TURNAROUND_MILES_EACH_WAY);
  return { geometry, miles: roadMilesOf(on, geometry) };
}

/** The way back from the exit to the foot, then `onwards` (a line from the foot). */
function backFrom(turn: Turnaround, onwards: readonly GeoPoint[]): GeoPoint[] {
  return [...[...turn.geometry].reverse(), ...onwards.slice(1)];
}

/** A destination on an interstate is reached from either junction of its segment. */
function arrivals(on: RoadPosition): RouteEnd[] {
  return [alongEnd(on, 'to', 'destination'), alongEnd(on, 'from', 'destination')];
}

function alongEnd(on: RoadPosition, junction: 'to' | 'from', end: 'origin' | 'destination'): RouteEnd {
  const fromFoot = lineFromFoot(on, junction);
  const miles = junction === 'to' ? on.milesToEnd : on.milesFromStart;
  const localMiles = on.offsetMiles * LOCAL_CIRCUITY_FACTOR;
  return {
    node: junction === 'to' ? on.edge.to : on.edge.from,
    cost: localHours(on.offsetMiles) + miles / INTERSTATE_SPEED_MPH,
    joinAt: on.foot,
    joinName: footName(on, end, localMiles),
    offNetworkMiles: on.offsetMiles,
    along: { road: on.edge, geometry: end === 'origin' ? fromFoot : fromFoot.reverse(), miles },
  };
}

/**
 * Both ends on one segment, no junction between: the destination ahead of the truck, or behind it
 * after turning at the next exit (`turn`).
 */
interface SameRoad {
  cost: number;
  origin: RoadPosition;
  destination: RoadPosition;
  /** From the foot to the destination's foot (back from the exit when the truck turns). */
  geometry: GeoPoint[];
  miles: number;
  turn?: Turnaround;
}

function alongOneSegment(origin: RoadPosition, destination: RoadPosition): SameRoad | null {
  const ends = localHours(origin.offsetMiles) + localHours(destination.offsetMiles);
  const ways: ('to' | 'from')[] = [];
  if (origin.towardsTo) ways.push('to');
  if (origin.towardsFrom) ways.push('from');
  for (const way of ways) {
    const geometry = lineBetweenFeet(origin, destination, way);
    if (!geometry) continue;
    const miles = roadMilesOf(origin, geometry);
    return { cost: ends + miles / INTERSTATE_SPEED_MPH, origin, destination, geometry, miles };
  }
  if (ways.length !== 1) return null;
  const ahead = ways[0] as 'to' | 'from';
  const turn = turnaround(origin, ahead);
  const back = turn && lineBetweenFeet(origin, destination, ahead === 'to' ? 'from' : 'to');
  if (!turn || !back) return null;
  const miles = turn.miles + roadMilesOf(origin, back);
  const geometry = backFrom(turn, back);
  return {
    cost: ends + (turn.miles + miles) / INTERSTATE_SPEED_MPH,
    origin,
    destination,
    geometry,
    miles,
    turn,
  };
}

function addSameRoad(pieces: RoutePiece[], legs: RouteLeg[], request: RouteRequest, way: SameRoad): void {
  const { origin, destination, turn } = way;
  const start = footName(origin, 'origin', origin.offsetMiles * LOCAL_CIRCUITY_FACTOR);
  const finish = footName(destination, 'destination', destination.offsetMiles * LOCAL_CIRCUITY_FACTOR);
  addLocal(pieces, legs, request.origin, origin.foot, 'origin', start);
  if (turn) addInterstate(pieces, legs, origin.edge, turn.geometry, turn.miles, start, TURNAROUND_PLACE);
  addInterstate(pieces, legs, origin.edge, way.geometry, way.miles, turn ? TURNAROUND_PLACE : start, finish, {
    drawn: true,
    turnsBack: turn !== undefined,
  });
  addLocal(pieces, legs, destination.foot, request.destination, finish, 'destination');
}

function snap(
  graph: HighwayGraph,
  point: GeoPoint,
  endpoint: 'origin' | 'destination',
  candidates: number,
  snapLimitMiles: number,
): NearbyNode[] {
  const nearby = graph.nearestNodes(point, candidates);
  const nearest = nearby[0];
  if (!nearest || nearest.miles > snapLimitMiles) {
    throw new RoutingUnreachableError(
      endpoint,
      point,
      nearest?.miles ?? Number.POSITIVE_INFINITY,
      snapLimitMiles,
    );
  }
  return nearby.filter((candidate) => candidate.miles <= snapLimitMiles);
}

function addPath(
  graph: HighwayGraph,
  pieces: RoutePiece[],
  legs: RouteLeg[],
  request: RouteRequest,
  source: RouteEnd,
  target: RouteEnd,
  steps: readonly Adjacency[],
): void {
  const first = graph.nodes[source.node] as HighwayNode;
  const last = graph.nodes[target.node] as HighwayNode;
  addLocal(pieces, legs, request.origin, source.joinAt, 'origin', source.joinName);
  // The segment driven last: driving it again straight after is a turn back at the junction, which
  // starts a leg of its own even on the same road, so the legs show it.
  let previous: HighwayEdge | null = null;
  const drive = (
    edge: HighwayEdge,
    geometry: readonly GeoPoint[],
    miles: number,
    from: string,
    to: string,
    drawn: boolean,
  ) => {
    addInterstate(pieces, legs, edge, geometry, miles, from, to, { drawn, turnsBack: previous === edge });
    previous = edge;
  };
  if (source.along) {
    const { road, geometry, miles } = source.along;
    const { turn } = source;
    if (turn) {
      drive(road, turn.geometry, turn.miles, source.joinName, TURNAROUND_PLACE, true);
      drive(road, backFrom(turn, geometry), turn.miles + miles, TURNAROUND_PLACE, placeName(first), true);
    } else {
      drive(road, geometry, miles, source.joinName, placeName(first), true);
    }
  }
  for (const step of steps) {
    const geometry = step.reversed ? [...step.edge.geometry].reverse() : step.edge.geometry;
    const from = graph.nodes[step.reversed ? step.edge.to : step.edge.from] as HighwayNode;
    const to = graph.nodes[step.to] as HighwayNode;
    drive(step.edge, geometry, step.edge.miles, placeName(from), placeName(to), false);
  }
  if (target.along) {
    const { road, geometry, miles } = target.along;
    drive(road, geometry, miles, placeName(last), target.joinName, true);
  }
  addLocal(pieces, legs, target.joinAt, request.destination, target.joinName, 'destination');
}

/**
 * Appends a stretch of interstate, merged into the leg before when that is on the same road and
 * the stretch does not turn back along it. A stretch from or to a foot (`drawn`) is a slice of the
 * segment's drawn line, already as a route draws it.
 */
function addInterstate(
  pieces: RoutePiece[],
  legs: RouteLeg[],
  edge: HighwayEdge,
  geometry: readonly GeoPoint[],
  miles: number,
  fromName: string,
  toName: string,
  how: { drawn: boolean; turnsBack: boolean } = { drawn: true, turnsBack: false },
): void {
  if (miles < MIN_LEG_MILES) return;
  pieces.push({ geometry, miles, drawn: how.drawn });
  const current = legs.at(-1);
  if (current?.kind === 'interstate' && current.road === edge.interstate && !how.turnsBack) {
    current.to = toName;
    current.miles += miles;
    current.durationMinutes += minutes(miles, INTERSTATE_SPEED_MPH);
    current.milesEstimated ||= edge.milesEstimated;
    for (const road of edge.concurrent) if (!current.concurrent.includes(road)) current.concurrent.push(road);
    return;
  }
  legs.push({
    kind: 'interstate',
    road: edge.interstate,
    concurrent: [...edge.concurrent],
    from: fromName,
    to: toName,
    miles,
    durationMinutes: minutes(miles, INTERSTATE_SPEED_MPH),
    startMiles: startOfNextLeg(legs),
    milesEstimated: edge.milesEstimated,
  });
}

/**
 * What the legs call a foot on an interstate: `origin` / `destination` when the truck is on the
 * road there (no local leg), else the road with the end it serves (`I-35 (origin)`).
 */
function footName(on: RoadPosition, end: 'origin' | 'destination', localMiles: number): string {
  return localMiles < MIN_LEG_MILES ? end : `${on.edge.interstate} (${end})`;
}

/** Appends a local leg unless its ends coincide (a request that starts exactly at a node). */
function addLocal(
  pieces: RoutePiece[],
  legs: RouteLeg[],
  from: GeoPoint,
  to: GeoPoint,
  fromName: string,
  toName: string,
): void {
  const miles = haversineMiles(from, to) * LOCAL_CIRCUITY_FACTOR;
  if (miles < MIN_LEG_MILES) return;
  pieces.push({ geometry: [from, to], miles });
  legs.push({
    kind: 'local',
    road: 'local',
    concurrent: [],
    from: fromName,
    to: toName,
    miles,
    durationMinutes: minutes(miles, LOCAL_SPEED_MPH),
    startMiles: startOfNextLeg(legs),
    milesEstimated: true,
  });
}

function startOfNextLeg(legs: readonly RouteLeg[]): number {
  return roundToTenth(legs.reduce((sum, leg) => sum + leg.miles, 0));
}

function localHours(straightMiles: number): number {
  return (straightMiles * LOCAL_CIRCUITY_FACTOR) / LOCAL_SPEED_MPH;
}

function minutes(miles: number, mph: number): number {
  return (miles / mph) * 60;
}

function placeName(node: HighwayNode): string {
  return `${node.name}, ${node.state}`;
}
