import {
  bearingDegrees,
  bearingDifferenceDegrees,
  type GeoPoint,
  haversineMiles,
  interpolateGreatCircle,
  milesRulerAt,
  toLonLat,
} from '#shared/kernel/distance.ts';
import type { HighwayEdge, HighwayGraph } from './highway-graph.ts';
import { densify, roundToPolylinePrecision } from './polyline.ts';

/**
 * A point this close to the drawn line of an interstate segment is on that interstate. The drawn
 * line is a sketch through the segment's junctions and a few shape points, so the pavement lies
 * up to a few miles off it on curves; a truck's GPS (metres) adds nothing at this scale. Farther
 * out, a position joins the network at its nearest junctions by local road.
 */
export const ON_ROAD_MAX_OFFSET_MILES = 3;

/**
 * A point this close to a junction is at the junction: the truck may take any of its roads (an
 * interchange's ramps span about this much), so it joins the network there, not along one road.
 */
export const JUNCTION_RADIUS_MILES = 0.25;

/**
 * A heading within this angle of a segment's direction travels along it, that way; within it of
 * the opposite direction, the other way; anything in between crosses it (an overpass, a frontage
 * road's turn). Wide, because the drawn line only sketches the road's bends.
 */
export const HEADING_TOLERANCE_DEGREES = 60;

/** Where a point lies on the interstate network: its foot on one segment's drawn line. */
export interface RoadPosition {
  edge: HighwayEdge;
  /** The segment's drawn line from its `from` junction, as a route draws it (route-line.ts). */
  drawn: readonly GeoPoint[];
  /** The foot lies on the drawn stretch from `drawn[index]` to `drawn[index + 1]`. */
  index: number;
  /** The point's nearest point on the drawn line, at the polyline's precision. */
  foot: GeoPoint;
  /** Great-circle miles from the point to its foot. */
  offsetMiles: number;
  /** Road miles per drawn mile of the segment. */
  scale: number;
  /** Road miles along the segment from its `from` junction to the foot, and from the foot to `to`. */
  milesFromStart: number;
  milesToEnd: number;
  /** Which ways a truck there may move along the segment: towards `to`, towards `from`. */
  towardsTo: boolean;
  towardsFrom: boolean;
}

interface DrawnNetwork {
  lines: GeoPoint[][];
  /** Per segment: road miles per drawn mile. */
  scales: number[];
  /** Per segment: `[west, south, east, north]` of its drawn line. */
  boxes: [number, number, number, number][];
}

const drawings = new WeakMap<HighwayGraph, DrawnNetwork>();

function drawnNetwork(graph: HighwayGraph): DrawnNetwork {
  const found = drawings.get(graph);
  if (found) return found;
  const network: DrawnNetwork = { lines: [], scales: [], boxes: [] };
  for (const edge of graph.edges) {
    // Exactly as a route draws a whole segment (route-line.ts): densified, then rounded.
    const line = densify(edge.geometry).map(roundToPolylinePrecision);
    const drawn = drawnMiles(line);
    network.lines.push(line);
    network.scales.push(drawn > 0 ? edge.miles / drawn : 0);
    const latitudes = line.map((point) => point.latitude);
    const longitudes = line.map((point) => point.longitude);
    network.boxes.push([
      Math.min(...longitudes),
      Math.min(...latitudes),
      Math.max(...longitudes),
      Math.max(...latitudes),
    ]);
  }
  drawings.set(graph, network);
  return network;
}

/**
 * The interstate a point is on and which way the truck there may go, or null when it is not on
 * one: farther than {@link ON_ROAD_MAX_OFFSET_MILES} from every segment, at a junction, or (with a
 * heading) on no segment running its way. With a heading the nearest segment running that way is
 * taken and the truck goes on in its direction of travel; without one, the nearest segment, either
 * way.
 *
 * @example
 * const on = locateOnRoad(graph, truck, 2); // northbound on I-35 north of Dallas
 * on?.edge.interstate; // 'I-35'; on.towardsTo / on.towardsFrom: only the northward one
 */
export function locateOnRoad(
  graph: HighwayGraph,
  point: GeoPoint,
  headingDegrees?: number | null,
): RoadPosition | null {
  const [nearestNode] = graph.nearestNodes(point, 1);
  if (!nearestNode || nearestNode.miles <= JUNCTION_RADIUS_MILES) return null;
  const network = drawnNetwork(graph);
  const ruler = milesRulerAt(point.latitude);
  const at = toLonLat(point);
  const [west, south, east, north] = ruler.bufferPoint(at, ON_ROAD_MAX_OFFSET_MILES);
  const heading =
    typeof headingDegrees === 'number' && Number.isFinite(headingDegrees) ? headingDegrees : null;

  let best: RoadPosition | null = null;
  for (const edge of graph.edges) {
    const box = network.boxes[edge.index] as [number, number, number, number];
    if (box[0] > east || box[2] < west || box[1] > north || box[3] < south) continue;
    const drawn = network.lines[edge.index] as GeoPoint[];
    const onLine = ruler.pointOnLine(drawn.map(toLonLat), at);
    const offsetMiles = ruler.distance(at, onLine.point);
    if (offsetMiles > ON_ROAD_MAX_OFFSET_MILES || (best && offsetMiles >= best.offsetMiles)) continue;
    const ways = waysAlong(drawn, onLine.index, heading);
    if (!ways) continue;
    best = positionOn(edge, drawn, network.scales[edge.index] ?? 0, onLine.index, onLine.t, point, ways);
  }
  return best;
}

/** Which ways a truck with this heading may go along the drawn stretch; null: it crosses it. */
function waysAlong(
  drawn: readonly GeoPoint[],
  index: number,
  heading: number | null,
): { towardsTo: boolean; towardsFrom: boolean } | null {
  if (heading === null) return { towardsTo: true, towardsFrom: true };
  const along = bearingDegrees(drawn[index] as GeoPoint, drawn[index + 1] as GeoPoint);
  const difference = bearingDifferenceDegrees(heading, along);
  if (difference <= HEADING_TOLERANCE_DEGREES) return { towardsTo: true, towardsFrom: false };
  if (difference >= 180 - HEADING_TOLERANCE_DEGREES) return { towardsTo: false, towardsFrom: true };
  return null;
}

function positionOn(
  edge: HighwayEdge,
  drawn: readonly GeoPoint[],
  scale: number,
  index: number,
  t: number,
  point: GeoPoint,
  ways: { towardsTo: boolean; towardsFrom: boolean },
): RoadPosition {
  const a = drawn[index] as GeoPoint;
  const b = drawn[index + 1] as GeoPoint;
  // On the great circle between the two drawn points, as the route line draws the stretch.
  const foot = roundToPolylinePrecision(interpolateGreatCircle(a, b, t));
  // Measured as the pieces a route draws from it will be (route-line.ts): drawn miles × scale.
  const milesFromStart = scale * drawnMiles([...drawn.slice(0, index + 1), foot]);
  const milesToEnd = scale * drawnMiles([foot, ...drawn.slice(index + 1)]);
  return {
    edge,
    drawn,
    index,
    foot,
    offsetMiles: haversineMiles(point, foot),
    scale,
    milesFromStart,
    milesToEnd,
    ...ways,
  };
}

/** The drawn line from the foot to the segment's `to` junction (`towards: 'to'`) or its `from` one. */
export function lineFromFoot(position: RoadPosition, towards: 'to' | 'from'): GeoPoint[] {
  const { drawn, index, foot } = position;
  return towards === 'to'
    ? [foot, ...drawn.slice(index + 1)]
    : [foot, ...drawn.slice(0, index + 1).reverse()];
}

/**
 * The drawn line from the foot on along the segment (towards its `to` junction or its `from` one)
 * for `roadMiles` road miles, or to the junction when that is nearer. Ends part-way along a drawn
 * stretch, on the great circle between its points and at the polyline's precision, as a foot does.
 */
export function lineAheadOfFoot(
  position: RoadPosition,
  towards: 'to' | 'from',
  roadMiles: number,
): GeoPoint[] {
  const line = lineFromFoot(position, towards);
  if (position.scale <= 0) return [position.foot];
  let left = roadMiles / position.scale;
  const ahead: GeoPoint[] = [position.foot];
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1] as GeoPoint;
    const b = line[i] as GeoPoint;
    const span = haversineMiles(a, b);
    if (span >= left) {
      ahead.push(roundToPolylinePrecision(interpolateGreatCircle(a, b, span > 0 ? left / span : 0)));
      return ahead;
    }
    ahead.push(b);
    left -= span;
  }
  return ahead;
}

/**
 * The drawn line between two feet on the same segment, in the order given; null when the second
 * is not ahead of the first in that direction.
 */
export function lineBetweenFeet(
  from: RoadPosition,
  to: RoadPosition,
  towards: 'to' | 'from',
): GeoPoint[] | null {
  if (from.edge !== to.edge) return null;
  const ahead =
    towards === 'to' ? to.milesFromStart >= from.milesFromStart : to.milesFromStart <= from.milesFromStart;
  if (!ahead) return null;
  const { drawn } = from;
  const inner =
    towards === 'to'
      ? drawn.slice(from.index + 1, to.index + 1)
      : drawn.slice(to.index + 1, from.index + 1).reverse();
  return [from.foot, ...inner, to.foot];
}

/** Road miles of a stretch of the position's segment: drawn miles × the segment's scale. */
export function roadMilesOf(position: RoadPosition, line: readonly GeoPoint[]): number {
  return drawnMiles(line) * position.scale;
}

function drawnMiles(points: readonly GeoPoint[]): number {
  let miles = 0;
  for (let i = 1; i < points.length; i++)
    miles += haversineMiles(points[i - 1] as GeoPoint, points[i] as GeoPoint);
  return miles;
}
