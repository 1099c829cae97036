import {
  type RouteLeg as AmazonRouteLeg,
  CalculateRoutesCommand,
  type CalculateRoutesCommandOutput,
  type CalculateRoutesRequest,
  GeoRoutesClient,
  type GeoRoutesClientConfig,
  type Route,
} from '@aws-sdk/client-geo-routes';
import { assertCoordinates, type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { boundedClientConfig } from '#shared/platform/adapters/aws-call-limits.ts';
import { translateAmazonLocationError, unreachableError } from './amazon-location-errors.ts';
import { refusedNoticeSentences } from './amazon-location-notices.ts';
import { amazonTruckOptions, DEFAULT_TRUCK, toAmazonTruck } from './amazon-location-truck.ts';
import { encodeRoutePolyline } from './polyline.ts';
import { buildRouteLine, type RoutePiece } from './route-line.ts';
import type { RouteLeg, RouteRequest, RouteResult, RoutingEngine } from './routing-engine.ts';
import { RouteTimeoutError } from './routing-errors.ts';

/** Metres in a statute mile (exact, by the 1959 international yard). */
export const METERS_PER_MILE = 1609.344;

/**
 * Routes V2 publishes no map-data version, so the result names the API version it was computed
 * with: enough to tell an Amazon Location route from an embedded one when a stored route is read.
 */
export const AMAZON_LOCATION_DATA_VERSION = 'geo-routes-2020-11-19';

/**
 * Default wall-clock budget for one call, the embedded engine's (2 s), declared here rather than
 * imported so this adapter does not pull the embedded graph's data into its bundle.
 */
export const DEFAULT_AMAZON_LOCATION_TIME_BUDGET_MS = 2_000;

export interface AmazonLocationRouterOptions {
  /** Injectable so tests can mock it; built once per router otherwise (one per container). */
  client?: GeoRoutesClient;
  /** Region of the client built when none is given; the SDK's own resolution when unset. */
  region?: string;
  /** Wall-clock budget for one call, retries included; over it `RouteTimeoutError`. */
  timeBudgetMs?: number;
}

/**
 * Attempts per call: one retry absorbs a throttled or failed first try, and a second retry's
 * backoff (up to ~1 s after a throttle) would not fit in the 2 s budget anyway.
 */
export const AMAZON_LOCATION_MAX_ATTEMPTS = 2;

/**
 * The client's retry and socket limits, inside the budget: a connection that takes over a quarter
 * of it is dropped so the retry still has time, and no single attempt outlives the budget (the
 * SDK's default for both is no timeout at all). The race in `sendWithinBudget` holds the budget
 * whatever these do; they make the SDK stop its own work too, instead of leaving a socket open.
 */
export function geoRoutesClientConfig(budgetMs: number): GeoRoutesClientConfig {
  return boundedClientConfig({
    maxAttempts: AMAZON_LOCATION_MAX_ATTEMPTS,
    connectionTimeoutMs: Math.round(budgetMs / 4),
    requestTimeoutMs: budgetMs,
  });
}

/**
 * Routes with Amazon Location Service (Routes V2, `CalculateRoutes`, truck mode) behind the
 * `RoutingEngine` port, for the request's truck (the standard one when it names none). Failures
 * are translated into the port's terms (amazon-location-errors.ts): no route, or only one that
 * breaks the truck's restrictions (amazon-location-notices.ts) → `RoutingUnreachableError`; over
 * the budget → `RouteTimeoutError`; throttling or a failing service → `RouteCapacityError`.
 *
 * @example
 * const router = createAmazonLocationRouter({ region: 'us-east-1' });
 * const route = await router.route({ origin: dallas, destination: wichita });
 */
export function createAmazonLocationRouter(options: AmazonLocationRouterOptions = {}): RoutingEngine {
  const budgetMs = options.timeBudgetMs ?? DEFAULT_AMAZON_LOCATION_TIME_BUDGET_MS;
  const client =
    options.client ??
    new GeoRoutesClient({
      ...geoRoutesClientConfig(budgetMs),
      ...(options.region ? { region: options.region } : {}),
    });
  return {
    route: async (request) => {
      assertCoordinates(request.origin, 'origin');
      assertCoordinates(request.destination, 'destination');
      const input = calculateRoutesInput(request);
      const response = await sendWithinBudget(client, new CalculateRoutesCommand(input), budgetMs, request);
      const route = response.Routes?.[0];
      if (!route) {
        const notices = (response.Notices ?? []).map((notice) => notice.Code).join(', ');
        throw unreachableError(
          request,
          'destination',
          `Amazon Location found no truck route between the origin and the destination${notices ? ` (${notices})` : ''}.`,
        );
      }
      const refused = refusedNoticeSentences(
        route,
        request.truck ? toAmazonTruck(request.truck) : DEFAULT_TRUCK,
      );
      if (refused.length > 0) {
        throw unreachableError(
          request,
          'destination',
          `Amazon Location found no truck route between the origin and the destination that this truck may ` +
            `drive: its best route crosses ${refused.join('; ')}. Check the truck profile's dimensions, ` +
            'weight and hazardous cargo.',
        );
      }
      return toRouteResult(route, request);
    },
  };
}

/**
 * The request: one truck route, leg geometry as plain coordinates, per-leg distances and times, and
 * the truck's heading at the origin when it is moving.
 */
export function calculateRoutesInput(request: RouteRequest): CalculateRoutesRequest {
  const heading = request.originHeadingDegrees;
  return {
    Origin: [request.origin.longitude, request.origin.latitude],
    // The truck's direction of travel: the service matches the origin to the road and the side it
    // is driving on, so the route goes on ahead instead of turning back to the nearest junction.
    ...(typeof heading === 'number' && Number.isFinite(heading)
      ? { OriginOptions: { Heading: ((heading % 360) + 360) % 360 } }
      : {}),
    Destination: [request.destination.longitude, request.destination.latitude],
    TravelMode: 'Truck',
    TravelModeOptions: { Truck: amazonTruckOptions(request.truck) },
    // 'Simple' is a GeoJSON-style LineString: no flexible-polyline decoder to depend on, and the
    // precision it loses over the encoded form does not matter once rounded to 1e-5° for our polyline.
    LegGeometryFormat: 'Simple',
    // Leg summaries carry each leg's road distance and duration; without them the legs would
    // have geometry only.
    LegAdditionalFeatures: ['Summary'],
  };
}

/**
 * Sends within the budget. The signal asks the SDK to cancel the HTTP call; the race makes the
 * budget hold whatever the SDK does with it (a retry in backoff, a handler that ignores it).
 */
async function sendWithinBudget(
  client: GeoRoutesClient,
  command: CalculateRoutesCommand,
  budgetMs: number,
  request: RouteRequest,
): Promise<CalculateRoutesCommandOutput> {
  const controller = new AbortController();
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new RouteTimeoutError(budgetMs, performance.now() - startedAt));
    }, budgetMs);
  });
  try {
    return await Promise.race([client.send(command, { abortSignal: controller.signal }), expired]);
  } catch (error) {
    throw translateAmazonLocationError(error, request, budgetMs, performance.now() - startedAt);
  } finally {
    clearTimeout(timer);
  }
}

interface LegDraft {
  geometry: GeoPoint[];
  meters: number | undefined;
  seconds: number | undefined;
  type: string;
  from: string;
  to: string;
}

/** Builds the port's result from the first route: one piece and one leg per service leg. */
function toRouteResult(route: Route, request: RouteRequest): RouteResult {
  const drafts = (route.Legs ?? []).map((leg, i, legs) => draftLeg(leg, i === 0, i === legs.length - 1));
  if (drafts.length === 0)
    throw unreachableError(request, 'destination', 'Amazon Location returned a route with no legs.');
  const meters = legMeters(drafts, route.Summary?.Distance);

  const pieces: RoutePiece[] = [];
  const legs: RouteLeg[] = [];
  const labels = roadLabels(route);
  const vehicleLegs = drafts.filter((draft) => draft.type === 'Vehicle').length;
  let milesBefore = 0;
  drafts.forEach((draft, i) => {
    // Legs in tenths of a mile, and the route as their sum, so the legs add up to the distance
    // exactly and the line's last cumulative mile equals it.
    const miles = roundToTenth((meters[i]?.value ?? 0) / METERS_PER_MILE);
    pieces.push({ geometry: draft.geometry, miles });
    const vehicle = draft.type === 'Vehicle';
    // Major road labels describe the whole route, so they name a leg only when it is the route's
    // one vehicle leg (the usual origin → destination answer).
    const named = vehicle && vehicleLegs === 1 && labels.length > 0;
    legs.push({
      kind: vehicle ? 'interstate' : 'local',
      road: named ? (labels[0] as string) : draft.type.toLowerCase(),
      concurrent: named ? labels.slice(1) : [],
      from: draft.from,
      to: draft.to,
      miles,
      durationMinutes: roundToTenth((draft.seconds ?? 0) / 60),
      startMiles: roundToTenth(milesBefore),
      milesEstimated: meters[i]?.estimated ?? true,
    });
    milesBefore += miles;
  });

  const line = buildRouteLine(pieces);
  const seconds = route.Summary?.Duration ?? drafts.reduce((sum, draft) => sum + (draft.seconds ?? 0), 0);
  return {
    distanceMiles: roundToTenth(milesBefore),
    durationMinutes: roundToTenth(seconds / 60),
    polyline: encodeRoutePolyline(line.points),
    points: line.points,
    cumulativeMiles: line.cumulativeMiles,
    legs,
    engine: { name: 'amazon-location', dataVersion: AMAZON_LOCATION_DATA_VERSION },
  };
}

function draftLeg(leg: AmazonRouteLeg, first: boolean, last: boolean): LegDraft {
  const coordinates = leg.Geometry?.LineString;
  if (!coordinates || coordinates.length === 0) {
    // Only a request without LegGeometryFormat 'Simple' gets an encoded polyline instead.
    throw new Error(`Amazon Location returned a ${leg.Type ?? 'route'} leg without LineString geometry.`);
  }
  const geometry = coordinates.map(([longitude, latitude]) => {
    if (typeof longitude !== 'number' || typeof latitude !== 'number') {
      throw new Error('Amazon Location returned a leg position that is not [longitude, latitude].');
    }
    return { latitude, longitude };
  });
  const details = leg.VehicleLegDetails ?? leg.FerryLegDetails ?? leg.PedestrianLegDetails;
  const overview = details?.Summary?.Overview;
  return {
    geometry,
    meters: overview?.Distance,
    seconds: overview?.Duration,
    type: leg.Type ?? 'Vehicle',
    from: details?.Departure?.Place?.Name ?? (first ? 'origin' : positionName(geometry[0])),
    to: details?.Arrival?.Place?.Name ?? (last ? 'destination' : positionName(geometry.at(-1))),
  };
}

/**
 * Each leg's road metres. Leg summaries are requested, so they are normally all there; a leg
 * without one gets the route distance the others leave, shared by drawn length, or failing that
 * its drawn length, and is flagged estimated.
 */
function legMeters(
  drafts: readonly LegDraft[],
  routeMeters: number | undefined,
): { value: number; estimated: boolean }[] {
  const drawn = drafts.map((draft) => drawnMiles(draft.geometry) * METERS_PER_MILE);
  const known = drafts.reduce((sum, draft) => sum + (draft.meters ?? 0), 0);
  const unknownDrawn = drafts.reduce(
    (sum, draft, i) => sum + (draft.meters === undefined ? (drawn[i] ?? 0) : 0),
    0,
  );
  const left = routeMeters === undefined ? undefined : Math.max(0, routeMeters - known);
  return drafts.map((draft, i) => {
    if (draft.meters !== undefined) return { value: draft.meters, estimated: false };
    const own = drawn[i] ?? 0;
    const value = left !== undefined && unknownDrawn > 0 ? (left * own) / unknownDrawn : own;
    return { value, estimated: true };
  });
}

/** Route numbers (`I-35`) where the service has them, else road names, without repeats. */
function roadLabels(route: Route): string[] {
  const labels = (route.MajorRoadLabels ?? []).map(
    (label) => label.RouteNumber?.Value ?? label.RoadName?.Value ?? '',
  );
  return [...new Set(labels.filter((label) => label !== ''))];
}

function drawnMiles(points: readonly GeoPoint[]): number {
  let miles = 0;
  for (let i = 1; i < points.length; i++)
    miles += haversineMiles(points[i - 1] as GeoPoint, points[i] as GeoPoint);
  return miles;
}

function positionName(point: GeoPoint | undefined): string {
  return point ? `${point.latitude.toFixed(4)}, ${point.longitude.toFixed(4)}` : 'waypoint';
}
