import { roundToTenth } from '../domain/rounding.ts';
import { assertCoordinates, type GeoPoint, haversineMiles } from './distance.ts';
import { findCheapestPath, type Terminal } from './graph-search.ts';
import {
  type Adjacency,
  type HighwayGraph,
  type HighwayNode,
  loadHighwayGraph,
  type NearbyNode,
} from './highway-graph.ts';
import { encodeRoutePolyline } from './polyline.ts';
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
 * The embedded router's computation, synchronous (it does no I/O): snap both ends to their
 * nearest nodes, A* over the interstates, then geometry, legs and polyline.
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
  const originNodes = snap(graph, origin, 'origin', candidates, snapLimitMiles);
  const destinationNodes = snap(graph, destination, 'destination', candidates, snapLimitMiles);

  const heuristic = new Float64Array(graph.nodes.length).fill(Number.NaN);
  const path = findCheapestPath(graph, {
    sources: originNodes.map(({ node, miles }) => ({ node: node.index, cost: localHours(miles) })),
    targets: destinationNodes.map(({ node, miles }) => ({ node: node.index, cost: localHours(miles) })),
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

  const directMiles = haversineMiles(origin, destination);
  const pieces: RoutePiece[] = [];
  const legs: RouteLeg[] = [];
  const directHours = directMiles <= snapLimitMiles ? localHours(directMiles) : Number.POSITIVE_INFINITY;
  if (Number.isFinite(directHours) && directHours <= (path?.cost ?? Number.POSITIVE_INFINITY)) {
    // Close enough that the local road beats going out to the interstate and back.
    addLocal(pieces, legs, origin, destination, 'origin', 'destination');
  } else if (path) {
    addPath(graph, pieces, legs, request, path.source, path.target, path.steps);
  } else {
    // Only a graph in pieces gets here (the bundled one is connected, a tested invariant).
    throw new RoutingUnreachableError(
      'destination',
      destination,
      destinationNodes[0]?.miles ?? 0,
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
  source: Terminal,
  target: Terminal,
  steps: readonly Adjacency[],
): void {
  const first = graph.nodes[source.node] as HighwayNode;
  const last = graph.nodes[target.node] as HighwayNode;
  addLocal(pieces, legs, request.origin, first, 'origin', placeName(first));
  for (const step of steps) {
    const geometry = step.reversed ? [...step.edge.geometry].reverse() : step.edge.geometry;
    pieces.push({ geometry, miles: step.edge.miles });
    const from = graph.nodes[step.reversed ? step.edge.to : step.edge.from] as HighwayNode;
    const to = graph.nodes[step.to] as HighwayNode;
    const current = legs.at(-1);
    if (current?.kind === 'interstate' && current.road === step.edge.interstate) {
      current.to = placeName(to);
      current.miles += step.edge.miles;
      current.durationMinutes += minutes(step.edge.miles, INTERSTATE_SPEED_MPH);
      current.milesEstimated ||= step.edge.milesEstimated;
      for (const road of step.edge.concurrent)
        if (!current.concurrent.includes(road)) current.concurrent.push(road);
    } else {
      legs.push({
        kind: 'interstate',
        road: step.edge.interstate,
        concurrent: [...step.edge.concurrent],
        from: placeName(from),
        to: placeName(to),
        miles: step.edge.miles,
        durationMinutes: minutes(step.edge.miles, INTERSTATE_SPEED_MPH),
        startMiles: startOfNextLeg(legs),
        milesEstimated: step.edge.milesEstimated,
      });
    }
  }
  addLocal(pieces, legs, last, request.destination, placeName(last), 'destination');
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
  if (miles < 0.01) return;
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
