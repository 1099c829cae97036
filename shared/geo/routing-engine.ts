import type { GeoPoint } from '#shared/kernel/distance.ts';

/** Where a truck starts and where it goes. */
export interface RouteRequest {
  origin: GeoPoint;
  destination: GeoPoint;
  /**
   * The truck's direction of travel at the origin, degrees clockwise from true north (0–360), when
   * it is moving (shared/tracking/domain/heading.ts); absent for a truck standing still or a planned trip. A
   * route from a truck on a road goes on the way it is heading: it never starts with a U-turn.
   */
  originHeadingDegrees?: number | null;
  /**
   * The truck the route is for, in the API's US units; an engine that knows truck restrictions
   * (Amazon Location) keeps it off roads it may not use. Absent: the engine's standard class-8
   * tractor-trailer. The embedded interstate graph ignores it (every segment is truck-legal).
   */
  truck?: RouteTruck;
}

/**
 * A truck's dimensions, weight and cargo as engines receive them (shared/fleets/domain/truck-profile.ts
 * resolves one from the vehicle, its fleet and the standard truck).
 */
export interface RouteTruck {
  heightInches: number;
  widthInches: number;
  lengthFeet: number;
  grossWeightLbs: number;
  /** All axles, tractor and trailer together. */
  axleCount: number;
  /** Hazardous cargo classes on board (the vocabulary of shared/fleets/domain/truck-profile.ts); empty: none. */
  hazardousCargo: readonly string[];
}

/**
 * A stretch of the route on one road: consecutive interstate segments with the same signed route
 * are merged, so a driver reads "I-80, Joliet, IL → Cheyenne, WY, 884 mi".
 */
export interface RouteLeg {
  /** `interstate` for a graph segment; `local` for the estimated leg to or from the network. */
  kind: 'interstate' | 'local';
  /** Signed route (`I-80`) or `local`. */
  road: string;
  /** Other routes signed on any part of this leg (`['I-90']` on the Indiana Toll Road). */
  concurrent: string[];
  /** Place names: `Joliet, IL`; `origin` / `destination` for the ends of local legs. */
  from: string;
  to: string;
  miles: number;
  durationMinutes: number;
  /** Road miles from the route start to the start of this leg. */
  startMiles: number;
  /** True when any part of the leg's miles is estimated rather than published. */
  milesEstimated: boolean;
}

/**
 * Densified route geometry: `points[i]` lies `cumulativeMiles[i]` road miles from the start, and
 * consecutive points are at most 5 miles apart, so stations can be placed along the route.
 */
export interface RouteLine {
  points: GeoPoint[];
  cumulativeMiles: number[];
}

/** A computed route. Miles are road miles; the last cumulative mile equals `distanceMiles`. */
export interface RouteResult extends RouteLine {
  distanceMiles: number;
  durationMinutes: number;
  /** Google encoded polyline, precision 5, of `points` (which are rounded to 1e-5 to match it). */
  polyline: string;
  legs: RouteLeg[];
  /** Which engine answered and, for the embedded one, the graph data version. */
  engine: { name: 'embedded' | 'amazon-location'; dataVersion: string };
}

/**
 * The routing port. Adapters: Amazon Location Service (production) and the embedded interstate
 * graph (everywhere else, and production's fallback): docs/routing.md. Failures are typed, all
 * `RoutingFailure`s: `RoutingUnreachableError` (a point off any road network, or no route the
 * truck may drive), `RouteTimeoutError` (the computation ran past its time budget) and
 * `RouteCapacityError` (the provider is throttling or failing).
 */
export interface RoutingEngine {
  route(request: RouteRequest): Promise<RouteResult>;
}
