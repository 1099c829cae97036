import { crossTrackMiles, type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { roundToHundredth } from '#shared/kernel/rounding.ts';
import { LOCAL_CIRCUITY_FACTOR, SNAP_LIMIT_MILES } from './embedded-router.ts';
import { type HighwayGraph, loadHighwayGraph } from './highway-graph.ts';
import { densify, roundToPolylinePrecision } from './polyline.ts';
import type { RouteLine } from './routing-engine.ts';

/**
 * Road miles along a line given as bare points (a client's polyline, a stored route's), by the
 * distance model the routes use (docs/decisions.md, "One distance model: road miles"). A route's
 * miles are road miles: each interstate segment's published or estimated miles, spread over its
 * drawn geometry in proportion to drawn length, and 1.3 road miles per straight mile on the local
 * legs that join the network (embedded-router.ts, route-line.ts). The drawn line is a sketch of the
 * road, shorter than it; so a line measured as drawn (great-circle miles) would read ~6 % short of
 * the route it came from, and put its stations short too.
 *
 * Read back by the same model:
 * - a stretch that runs along a segment of the network as the embedded engine draws it (both ends
 *   of each piece are consecutive points of the segment's drawn line, densified to 5 miles and
 *   rounded to the polyline's precision) counts that segment's road miles per drawn mile;
 * - a stretch from a point part-way along a drawn stretch of a segment to one of its ends (where a
 *   route joins or leaves an interstate between junctions: road-snap.ts) counts that segment's road
 *   miles per drawn mile too, and so does a stretch between such a point and another on the same
 *   drawn stretch (where a truck drives on to the next exit and turns back: embedded-router.ts);
 * - a straight stretch (one great circle) at either end of such a line that meets the network at a
 *   junction or at such a point, or a whole line that is one straight stretch, is a local leg: 1.3
 *   road miles per straight mile, at most 200 straight miles (the engine's snap limit);
 * - anything else (a polyline from another engine, a simplified or hand-drawn one) is measured as
 *   drawn, great-circle miles: its geometry is taken to be the road.
 * So a route's own polyline measures exactly the route's miles (up to rounding to hundredths),
 * point for point.
 */

/** How far an inner point may lie off the straight line it is judged part of (about 16 m). */
const STRAIGHT_TOLERANCE_MILES = 0.01;

interface DrawnSegment {
  /** The segment's drawn line from its `from` junction, as the engine draws it. */
  points: readonly GeoPoint[];
  /** Road miles per drawn mile. */
  scale: number;
}

interface NetworkIndex {
  segments: DrawnSegment[];
  /** By point key, where the point lies on a drawn line: segment and position. */
  at: Map<string, { segment: number; position: number }[]>;
  junctions: Set<string>;
}

const key = (point: GeoPoint) => `${Math.round(point.latitude * 1e5)},${Math.round(point.longitude * 1e5)}`;

const indexes = new WeakMap<HighwayGraph, NetworkIndex>();

function indexOf(graph: HighwayGraph): NetworkIndex {
  const index = indexes.get(graph);
  if (index) return index;
  const built: NetworkIndex = { segments: [], at: new Map(), junctions: new Set() };
  for (const node of graph.nodes) built.junctions.add(key(roundToPolylinePrecision(node)));
  for (const edge of graph.edges) {
    // Exactly as buildRouteLine draws a segment: densified, rounded, miles spread by drawn length.
    // Drawn the other way it is the same points reversed (a tested property of the bundled data),
    // so one drawing serves both directions.
    const points = densify(edge.geometry).map(roundToPolylinePrecision);
    const drawn = drawnMiles(points);
    const segment = built.segments.push({ points, scale: drawn > 0 ? edge.miles / drawn : 0 }) - 1;
    points.forEach((point, position) => {
      const entries = built.at.get(key(point)) ?? [];
      entries.push({ segment, position });
      built.at.set(key(point), entries);
    });
  }
  indexes.set(graph, built);
  return built;
}

/** Reads lines with the bundled network (data/highway-graph.json), or another graph. */
export function createRoadMilesReader(graph: HighwayGraph = loadHighwayGraph()) {
  const network = indexOf(graph);
  return (points: readonly GeoPoint[]): RouteLine => roadMilesLine(network, points);
}

let bundled: ((points: readonly GeoPoint[]) => RouteLine) | undefined;

/**
 * The line with each point's road miles from the start, by the routes' distance model.
 *
 * @example
 * const line = roadMilesAlong(decodeRoutePolyline(route.polyline));
 * line.cumulativeMiles.at(-1); // route.distanceMiles, to the hundredth
 */
export function roadMilesAlong(points: readonly GeoPoint[]): RouteLine {
  bundled ??= createRoadMilesReader();
  return bundled(points);
}

function roadMilesLine(network: NetworkIndex, points: readonly GeoPoint[]): RouteLine {
  const segments = points.length - 1;
  const drawn = Array.from({ length: Math.max(0, segments) }, (_, i) =>
    haversineMiles(points[i] as GeoPoint, points[i + 1] as GeoPoint),
  );
  // Points part-way along a drawn stretch where the line joins or leaves it: on the network too,
  // with the stretch they lie on.
  const feet = new Map<number, Stretch>();
  const scale = Array.from({ length: Math.max(0, segments) }, (_, i) => {
    const from = points[i] as GeoPoint;
    const to = points[i + 1] as GeoPoint;
    const whole = networkScale(network, from, to);
    if (whole !== null) return whole;
    const leaving = partialStretch(network, from, to);
    if (leaving !== null) {
      feet.set(i, leaving);
      return leaving.scale;
    }
    const joining = partialStretch(network, to, from);
    if (joining !== null) feet.set(i + 1, joining);
    return joining?.scale ?? null;
  });
  alongStretches(points, scale, feet);
  const onNetwork = (i: number) => feet.has(i) || meetsNetwork(network, points[i]);
  const first = scale.findIndex((s) => s !== null);
  const last = scale.findLastIndex((s) => s !== null);
  const local = (from: number, to: number) => {
    for (let i = from; i < to; i++) scale[i] = LOCAL_CIRCUITY_FACTOR;
  };
  if (first === -1) {
    if (isLocalLeg(points, 0, points.length - 1)) local(0, segments);
  } else {
    if (first > 0 && onNetwork(first) && isLocalLeg(points, 0, first)) local(0, first);
    const end = points.length - 1;
    if (last + 1 < end && onNetwork(last + 1) && isLocalLeg(points, last + 1, end)) {
      local(last + 1, segments);
    }
  }
  const cumulativeMiles: number[] = [];
  let total = 0;
  points.forEach((_, i) => {
    if (i > 0) total += (drawn[i - 1] as number) * (scale[i - 1] ?? 1);
    cumulativeMiles.push(roundToHundredth(total));
  });
  return { points: [...points], cumulativeMiles };
}

/** Road miles per drawn mile of the network segment `from` → `to` runs along, or null. */
function networkScale(network: NetworkIndex, from: GeoPoint, to: GeoPoint): number | null {
  const target = key(to);
  for (const { segment, position } of network.at.get(key(from)) ?? []) {
    const { points, scale } = network.segments[segment] as DrawnSegment;
    const ahead = points[position + 1];
    const behind = points[position - 1];
    if ((ahead && key(ahead) === target) || (behind && key(behind) === target)) return scale;
  }
  return null;
}

/** A drawn stretch of a segment: two consecutive points of its drawn line, and its scale. */
interface Stretch {
  a: GeoPoint;
  b: GeoPoint;
  scale: number;
}

/** The drawn stretch `foot` lies part-way along when it ends at `end` (a point of a segment's drawn line), else null. */
function partialStretch(network: NetworkIndex, foot: GeoPoint, end: GeoPoint): Stretch | null {
  for (const { segment, position } of network.at.get(key(end)) ?? []) {
    const { points, scale } = network.segments[segment] as DrawnSegment;
    for (const neighbour of [points[position - 1], points[position + 1]]) {
      if (!neighbour) continue;
      const stretch = { a: end, b: neighbour, scale };
      if (liesOn(foot, stretch)) return stretch;
    }
  }
  return null;
}

function liesOn(point: GeoPoint, { a, b }: Stretch): boolean {
  const span = haversineMiles(a, b);
  if (haversineMiles(a, point) >= span + STRAIGHT_TOLERANCE_MILES) return false;
  if (haversineMiles(b, point) >= span + STRAIGHT_TOLERANCE_MILES) return false;
  return crossTrackMiles(point, a, b) <= STRAIGHT_TOLERANCE_MILES;
}

/**
 * Gives the stretches still unread whose ends both lie part-way along one drawn stretch, one of
 * them a known foot, that stretch's scale: spreading from each foot to the points beside it.
 */
function alongStretches(
  points: readonly GeoPoint[],
  scale: (number | null)[],
  feet: Map<number, Stretch>,
): void {
  let spread = true;
  while (spread) {
    spread = false;
    scale.forEach((known, i) => {
      if (known !== null) return;
      for (const [foot, other] of [
        [i, i + 1],
        [i + 1, i],
      ] as const) {
        const stretch = feet.get(foot);
        if (!stretch || !liesOn(points[other] as GeoPoint, stretch)) continue;
        scale[i] = stretch.scale;
        if (!feet.has(other)) feet.set(other, stretch);
        spread = true;
        return;
      }
    });
  }
}

function meetsNetwork(network: NetworkIndex, point: GeoPoint | undefined): boolean {
  return point !== undefined && network.junctions.has(key(point));
}

/** `points[from..to]` is one straight stretch no longer than the engine joins the network with. */
function isLocalLeg(points: readonly GeoPoint[], from: number, to: number): boolean {
  const start = points[from] as GeoPoint;
  const end = points[to] as GeoPoint;
  if (to <= from || haversineMiles(start, end) > SNAP_LIMIT_MILES) return false;
  for (let i = from + 1; i < to; i++) {
    if (crossTrackMiles(points[i] as GeoPoint, start, end) > STRAIGHT_TOLERANCE_MILES) return false;
  }
  return true;
}

function drawnMiles(points: readonly GeoPoint[]): number {
  let miles = 0;
  for (let i = 1; i < points.length; i++)
    miles += haversineMiles(points[i - 1] as GeoPoint, points[i] as GeoPoint);
  return miles;
}
