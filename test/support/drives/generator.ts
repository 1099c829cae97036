/**
 * Simulated drives on the embedded network, seeded and pure (no I/O): what the guidance property
 * test and the fleet figures of `npm run bench` feed through the real use cases.
 *
 * A drive is a truck on an interstate between two real cities of the highway graph, starting
 * between the graph's nodes, with a gauge that sloshes, GPS jitter and a reporting cadence of its
 * own. Its driver does one thing with the stop guidance showed when it started: fuels there (exit,
 * surface road, dwell, fill, back onto the interstate), passes the exit, exits and turns back, or
 * passes it and fuels somewhere else; or, as the savings report is judged on, fuels at another
 * station of the corridor past the stop, or at one before it. Its breadcrumbs reach the API live,
 * as a buffered upload (29 minutes posted within one minute, several trucks a batch), or hours
 * late, in order or not.
 */

import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { highwayGraphData } from '#shared/geo/highway-graph.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import type { RouteResult } from '#shared/geo/routing-engine.ts';
import { type GeoPoint, milesRulerAt, toLonLat } from '#shared/kernel/distance.ts';
import { seededRandom } from '../seeded-random.ts';

export const DRIVER_BEHAVIOURS = [
  'fuels_at_shown_stop',
  'passes_the_exit',
  'exits_and_turns_back',
  'fuels_elsewhere',
  /** Ignores the shown stop: passes it and fuels at another station of the corridor further on. */
  'fuels_past_shown_stop',
  /** Fills early: fuels at a station of the corridor some 30–80 road miles before the shown stop. */
  'fuels_before_shown_stop',
] as const;
export type DriverBehaviour = (typeof DRIVER_BEHAVIOURS)[number];

export const DELIVERIES = ['live', 'buffered', 'hours_late'] as const;
export type Delivery = (typeof DELIVERIES)[number];

/** City pairs (highway-graph node ids) joined by interstates, 300–900 road miles apart. */
export const CITY_PAIRS: readonly (readonly [string, string])[] = [
  ['dallas-tx', 'denver-co'],
  ['oklahoma-city-ok', 'albuquerque-nm'],
  ['kansas-city-mo', 'denver-co'],
  ['atlanta-ga', 'dallas-tx'],
  ['houston-tx', 'el-paso-tx'],
  ['memphis-tn', 'oklahoma-city-ok'],
  ['chicago-il', 'nashville-tn'],
  ['st-louis-mo', 'omaha-ne'],
  ['denver-co', 'salt-lake-city-ut'],
  ['louisville-ky', 'birmingham-al'],
];

/** Surface-road speed between the interstate and a station. */
const RAMP_MPH = 25;
/** Where a truck leaving a station rejoins the interstate: this far past the station's foot. */
const REJOIN_PAST_FOOT_MILES = 0.3;
/** A truck that fuels elsewhere passes the shown stop's exit and fills this far on, off the road. */
const ELSEWHERE = { pastFootMiles: 12, offRoadMiles: 1 } as const;
/**
 * Where the driver who does not follow fuels instead, in road miles from the shown stop's foot:
 * past it (ignores the stop) or before it (fills early). The station is the corridor's nearest to
 * that mile (`otherStationFor`).
 */
export const OTHER_STATION_MILES = {
  fuels_past_shown_stop: { min: 15, max: 80 },
  fuels_before_shown_stop: { min: 30, max: 80 },
} as const;
/** A station of the corridor: at most this far off the route. */
const CORRIDOR_OFF_ROUTE_MILES = 1.5;
/** A truck that exits and turns back drives this share of the way to the station first. */
const TURN_BACK_SHARE = 0.4;
/**
 * A shown stop further ahead than this is not driven to: the drive is its first this-many road
 * miles (it still counts for withdrawals and updates). It keeps a 200-drive fleet to minutes.
 */
export const MAX_APPROACH_MILES = 150;

export interface City extends GeoPoint {
  id: string;
  name: string;
}

/** One truck's drive, every choice drawn from the seed. */
export interface DriveSpec {
  /** Unique within its fleet run. */
  index: number;
  from: City;
  to: City;
  /** Road miles along the city-pair route where the truck starts (between graph nodes). */
  startMile: number;
  startFuelPercent: number;
  tankGallons: number;
  mpg: number;
  cadenceSeconds: number;
  mph: number;
  /** The gauge reads the true level ± this while moving (a quarter of it while standing). */
  sloshPercent: number;
  gpsJitterMiles: number;
  dwellMinutes: number;
  fillToPercent: number;
  behaviour: DriverBehaviour;
  /** Road miles driven after the stop (or past its exit), before the drive's last breadcrumb. */
  milesAfterStop: number;
  /** Drives with no stop shown at start cruise this long. */
  cruiseMinutes: number;
  /** The seed of the drive's noise (gauge, GPS, speed). */
  noiseSeed: number;
  /**
   * fuels_past_shown_stop / fuels_before_shown_stop: how many road miles past (or before) the
   * shown stop's foot the driver looks for another station (OTHER_STATION_MILES).
   */
  otherStationMiles?: number;
}

/** Trucks of one fleet that report through the same provider: one delivery, shared batches. */
export interface DriveGroup {
  delivery: Delivery;
  /** Items within each POST shuffled (a provider that does not sort). */
  outOfOrder: boolean;
  /** hours_late: how long after the drive's end the backlog is posted. */
  lateByMinutes: number;
  drives: DriveSpec[];
}

export interface FleetOptions {
  seed: number;
  drives: number;
  /** Trucks per group (per provider and fleet), 1–`maxGroupSize`. Default 4. */
  maxGroupSize?: number;
  /** Relative weights of the driver behaviours; default mostly fuels_at_shown_stop. */
  behaviours?: Partial<Record<DriverBehaviour, number>>;
  /** Relative weights of the deliveries; default half live, the rest buffered or hours late. */
  deliveries?: Partial<Record<Delivery, number>>;
}

const DEFAULT_BEHAVIOURS: Record<DriverBehaviour, number> = {
  fuels_at_shown_stop: 7,
  passes_the_exit: 1,
  exits_and_turns_back: 1,
  fuels_elsewhere: 1,
  // The savings fleet's drivers (SAVINGS_FLEET_MIX): none in the guidance fleet.
  fuels_past_shown_stop: 0,
  fuels_before_shown_stop: 0,
};

/**
 * The fleet the savings report is judged on: followers, drivers who ignore the shown stop and fuel
 * further on, and early fillers, every breadcrumb live (what GET guidance showed at each moment is
 * then what stood when the truck fuelled).
 */
export const SAVINGS_FLEET_MIX = {
  behaviours: { fuels_at_shown_stop: 1, fuels_past_shown_stop: 1, fuels_before_shown_stop: 1 },
  deliveries: { live: 1 },
} as const satisfies Pick<FleetOptions, 'behaviours' | 'deliveries'>;
const DEFAULT_DELIVERIES: Record<Delivery, number> = { live: 2, buffered: 1.5, hours_late: 0.5 };

function weighted<K extends string>(random: () => number, weights: Partial<Record<K, number>>): K {
  const entries = Object.entries(weights).filter(([, w]) => (w as number) > 0) as [K, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [key, weight] of entries) {
    r -= weight;
    if (r < 0) return key;
  }
  return (entries.at(-1) as [K, number])[0];
}

const between = (random: () => number, min: number, max: number) => min + random() * (max - min);
const round1 = (value: number) => Math.round(value * 10) / 10;

let cities: Map<string, City> | undefined;
function city(id: string): City {
  cities ??= new Map(
    highwayGraphData().nodes.map((node) => [
      node.id,
      { id: node.id, name: node.name, latitude: node.latitude, longitude: node.longitude },
    ]),
  );
  const found = cities.get(id);
  if (!found) throw new Error(`no city ${id} in the highway graph`);
  return found;
}

const routes = new Map<string, RouteResult>();
/** The embedded route between a drive's cities (computed once per pair). */
export function routeOf(spec: Pick<DriveSpec, 'from' | 'to'>): RouteResult {
  const key = `${spec.from.id}>${spec.to.id}`;
  let route = routes.get(key);
  if (!route) {
    route = computeEmbeddedRoute({ origin: spec.from, destination: spec.to });
    routes.set(key, route);
  }
  return route;
}

/** The drives of a simulated fleet, in groups sharing a provider: the same seed, the same fleet. */
export function generateFleet(options: FleetOptions): DriveGroup[] {
  const random = seededRandom(options.seed);
  const maxGroupSize = options.maxGroupSize ?? 4;
  const groups: DriveGroup[] = [];
  let index = 0;
  while (index < options.drives) {
    const size = Math.min(options.drives - index, 1 + Math.floor(random() * maxGroupSize));
    const delivery = weighted(random, options.deliveries ?? DEFAULT_DELIVERIES);
    const drives: DriveSpec[] = [];
    for (let i = 0; i < size; i++) drives.push(generateDrive(random, index++, options.behaviours));
    groups.push({
      delivery,
      outOfOrder: delivery !== 'live' && random() < 0.5,
      lateByMinutes: Math.round(between(random, 60, 240)),
      drives,
    });
  }
  return groups;
}

function generateDrive(
  random: () => number,
  index: number,
  behaviours: FleetOptions['behaviours'] = DEFAULT_BEHAVIOURS,
): DriveSpec {
  const [from, to] = CITY_PAIRS[Math.floor(random() * CITY_PAIRS.length)] as readonly [string, string];
  const reversed = random() < 0.5;
  const spec: DriveSpec = {
    index,
    from: city(reversed ? to : from),
    to: city(reversed ? from : to),
    startMile: round1(between(random, 3, 40)),
    startFuelPercent: round1(between(random, 12, 60)),
    tankGallons: [120, 150, 150, 200][Math.floor(random() * 4)] as number,
    mpg: round1(between(random, 5.8, 7.2)),
    // 30 s to 5 min, most often a minute or two.
    cadenceSeconds: [30, 60, 60, 120, 120, 180, 300][Math.floor(random() * 7)] as number,
    mph: Math.round(between(random, 55, 68)),
    sloshPercent: round1(between(random, 1, 3)),
    gpsJitterMiles: between(random, 0, 0.02),
    dwellMinutes: Math.round(between(random, 10, 15)),
    fillToPercent: Math.round(between(random, 88, 93)),
    behaviour: weighted(random, behaviours),
    milesAfterStop: Math.round(between(random, 12, 25)),
    cruiseMinutes: Math.round(between(random, 45, 90)),
    noiseSeed: Math.floor(random() * 2 ** 31),
  };
  // Drawn last, and only for these behaviours: the fleets without them draw exactly as before.
  if (spec.behaviour === 'fuels_past_shown_stop' || spec.behaviour === 'fuels_before_shown_stop') {
    const range = OTHER_STATION_MILES[spec.behaviour];
    spec.otherStationMiles = Math.round(between(random, range.min, range.max));
  }
  return spec;
}

/** A station as the generator needs it: where it is. */
export interface CorridorStation {
  id: string;
  latitude: number;
  longitude: number;
}

/**
 * The station a driver who does not follow fuels at instead of the shown one: of the stations
 * within {@link CORRIDOR_OFF_ROUTE_MILES} of the route (`stationsNear` lists those around a
 * point), none of them a stop guidance showed (`shownStationIds`: following a later stop of the
 * plan is following), the one whose foot is nearest `otherStationMiles` past (or before) the shown
 * stop's, and strictly past it (or before it, ahead of the truck and within
 * {@link MAX_APPROACH_MILES}: an early filler fuels early even when the stop is further out). Null
 * for the other behaviours, with no stop shown, or when the corridor has no such station.
 */
export function otherStationFor<S extends CorridorStation>(
  spec: DriveSpec,
  shown: (ShownStop & { stationId: string }) | null,
  stationsNear: (point: GeoPoint, radiusMiles: number) => readonly S[],
  shownStationIds: ReadonlySet<string> = new Set(),
): S | null {
  if (spec.otherStationMiles === undefined || shown === null) return null;
  const past = spec.behaviour === 'fuels_past_shown_stop';
  if (past && !drivesToShownStop(spec, shown)) return null;
  const route = routeOf(spec);
  const end = route.distanceMiles - 3;
  const foot = Math.max(spec.startMile, projectOntoRoute(route, shown).milesAlongRoute);
  const [low, high] = past
    ? [foot + 5, end]
    : [spec.startMile + 2, Math.min(foot - 5, spec.startMile + MAX_APPROACH_MILES)];
  if (high <= low) return null;
  const target = Math.min(
    high,
    Math.max(low, past ? foot + spec.otherStationMiles : foot - spec.otherStationMiles),
  );
  let best: { station: S; miles: number } | null = null;
  for (const station of stationsNear(pointAtMiles(route, target), 25)) {
    if (station.id === shown.stationId || shownStationIds.has(station.id)) continue;
    const projected = projectOntoRoute(route, station);
    if (projected.offRouteMiles > CORRIDOR_OFF_ROUTE_MILES) continue;
    if (projected.milesAlongRoute < low || projected.milesAlongRoute > high) continue;
    const miles = Math.abs(projected.milesAlongRoute - target);
    if (!best || miles < best.miles) best = { station, miles };
  }
  return best?.station ?? null;
}

/** Where the truck is on the way: on the interstate, on the surface road either way, at the pumps. */
export type DrivePhase = 'road' | 'to_station' | 'at_station' | 'to_road';

/** One breadcrumb as the device reports it, with the truth the figures judge by. */
export interface DriveCrumb {
  recordedAtMs: number;
  latitude: number;
  longitude: number;
  fuelLevelPercent: number;
  speedMph: number;
  /** The truth, not reported: road miles along the city-pair route (the foot while off the road). */
  routeMile: number;
  phase: DrivePhase;
}

/** The truck's first breadcrumb, parked at its start, reported before guidance is started. */
export function parkedCrumb(spec: DriveSpec, atMs: number): DriveCrumb {
  const point = pointAtMiles(routeOf(spec), spec.startMile);
  return {
    recordedAtMs: atMs,
    ...round5(point),
    fuelLevelPercent: round1(spec.startFuelPercent),
    speedMph: 0,
    routeMile: spec.startMile,
    phase: 'road',
  };
}

/** A stretch of the drive: where the truck is after `f` (0–1) of it, and how far that is. */
interface Leg {
  miles: number;
  mph: number;
  phase: DrivePhase;
  at(fraction: number): { point: GeoPoint; routeMile: number };
  /** A fill during a dwell: the level it ends at (reached from the level at its start). */
  fillTo?: number;
  /** Minutes of a dwell (mph 0). */
  minutes?: number;
}

const roadLeg = (route: RouteResult, fromMile: number, toMile: number, mph: number): Leg => ({
  miles: Math.max(0, toMile - fromMile),
  mph,
  phase: 'road',
  at: (f) => {
    const routeMile = fromMile + f * (toMile - fromMile);
    return { point: pointAtMiles(route, routeMile), routeMile };
  },
});

const straightLeg = (from: GeoPoint, to: GeoPoint, phase: DrivePhase, routeMile: number): Leg => {
  const ruler = milesRulerAt((from.latitude + to.latitude) / 2);
  const miles = ruler.distance(toLonLat(from), toLonLat(to));
  return {
    miles,
    mph: RAMP_MPH,
    phase,
    at: (f) => ({
      point: {
        latitude: from.latitude + f * (to.latitude - from.latitude),
        longitude: from.longitude + f * (to.longitude - from.longitude),
      },
      routeMile,
    }),
  };
};

const dwellLeg = (
  station: GeoPoint,
  minutes: number,
  fillTo: number | undefined,
  routeMile: number,
): Leg => ({
  miles: 0,
  mph: 0,
  phase: 'at_station',
  minutes,
  ...(fillTo === undefined ? {} : { fillTo }),
  at: () => ({ point: station, routeMile }),
});

/** Where the drive's shown stop is, as the driver needs it: the station's position. */
export interface ShownStop {
  latitude: number;
  longitude: number;
}

/**
 * Whether the driver acts on the shown stop: one was shown, within {@link MAX_APPROACH_MILES}
 * of road ahead. (A stop shown behind the truck is taken at once: the driver turns for it.)
 */
export function drivesToShownStop(spec: DriveSpec, shown: ShownStop | null): shown is ShownStop {
  return (
    shown !== null &&
    projectOntoRoute(routeOf(spec), shown).milesAlongRoute - spec.startMile <= MAX_APPROACH_MILES
  );
}

/**
 * The drive's legs, given the stop shown when guidance started (null: none was shown) and, for a
 * driver who fuels at another station of the corridor, that station (`otherStationFor`).
 */
function legsOf(spec: DriveSpec, shown: ShownStop | null, other: ShownStop | null): Leg[] {
  const route = routeOf(spec);
  const end = route.distanceMiles - 1;
  // An early filler fuels early however far out the stop is: the drive takes it to the other station.
  const early = spec.behaviour === 'fuels_before_shown_stop' && other !== null;
  if (!early && !drivesToShownStop(spec, shown)) {
    const cruiseTo = Math.min(
      end,
      spec.startMile + (shown ? MAX_APPROACH_MILES : (spec.cruiseMinutes / 60) * spec.mph),
    );
    return [roadLeg(route, spec.startMile, cruiseTo, spec.mph)];
  }
  const stop = shown as ShownStop;
  const foot = projectOntoRoute(route, stop).milesAlongRoute;
  const exitMile = Math.max(spec.startMile, foot);
  const exitPoint = pointAtMiles(route, exitMile);
  const after = (fromMile: number) =>
    roadLeg(route, fromMile, Math.min(end, fromMile + spec.milesAfterStop), spec.mph);
  const station = { latitude: stop.latitude, longitude: stop.longitude };
  /** Exit at `mile`, the surface road to the station, the fill, back onto the road past its foot. */
  const fuelAt = (pumps: GeoPoint, mile: number) => {
    const rejoin = Math.min(end, mile + REJOIN_PAST_FOOT_MILES);
    return [
      roadLeg(route, spec.startMile, mile, spec.mph),
      straightLeg(pointAtMiles(route, mile), pumps, 'to_station', mile),
      dwellLeg(pumps, spec.dwellMinutes, spec.fillToPercent, mile),
      straightLeg(pumps, pointAtMiles(route, rejoin), 'to_road', mile),
      after(rejoin),
    ];
  };
  switch (spec.behaviour) {
    case 'fuels_at_shown_stop':
      return fuelAt(station, exitMile);
    case 'fuels_past_shown_stop':
    case 'fuels_before_shown_stop': {
      // No other station on the corridor: the driver fuels where shown after all.
      if (!other) return fuelAt(station, exitMile);
      const pumps = { latitude: other.latitude, longitude: other.longitude };
      return fuelAt(pumps, Math.max(spec.startMile, projectOntoRoute(route, pumps).milesAlongRoute));
    }
    case 'passes_the_exit':
      return [roadLeg(route, spec.startMile, exitMile, spec.mph), after(exitMile)];
    case 'exits_and_turns_back': {
      const turn = {
        latitude: exitPoint.latitude + TURN_BACK_SHARE * (station.latitude - exitPoint.latitude),
        longitude: exitPoint.longitude + TURN_BACK_SHARE * (station.longitude - exitPoint.longitude),
      };
      return [
        roadLeg(route, spec.startMile, exitMile, spec.mph),
        straightLeg(exitPoint, turn, 'to_station', exitMile),
        straightLeg(turn, exitPoint, 'to_road', exitMile),
        after(exitMile),
      ];
    }
    case 'fuels_elsewhere': {
      const fillMile = Math.min(end - 2, exitMile + ELSEWHERE.pastFootMiles);
      const onRoad = pointAtMiles(route, fillMile);
      const ahead = pointAtMiles(route, fillMile + 1);
      const ruler = milesRulerAt(onRoad.latitude);
      const [longitude, latitude] = ruler.destination(
        toLonLat(onRoad),
        ELSEWHERE.offRoadMiles,
        ruler.bearing(toLonLat(onRoad), toLonLat(ahead)) + 90,
      ) as [number, number];
      const yard = { latitude, longitude };
      const rejoin = fillMile + REJOIN_PAST_FOOT_MILES;
      return [
        roadLeg(route, spec.startMile, fillMile, spec.mph),
        straightLeg(onRoad, yard, 'to_station', fillMile),
        dwellLeg(yard, spec.dwellMinutes, spec.fillToPercent, fillMile),
        straightLeg(yard, pointAtMiles(route, rejoin), 'to_road', fillMile),
        after(rejoin),
      ];
    }
  }
}

/**
 * The drive's breadcrumbs after `startMs` (the moment guidance was started), one every
 * `cadenceSeconds` of recorded time, given the stop shown then. The truth moves continuously (a
 * fill lasts most of the dwell); the device samples it at its cadence and adds its noise.
 */
export function scriptDrive(
  spec: DriveSpec,
  shown: ShownStop | null,
  startMs: number,
  other: ShownStop | null = null,
): DriveCrumb[] {
  return scriptDriveWithFills(spec, shown, startMs, other).crumbs;
}

/** A fill the drive truly made: where (the pumps), when the pump ran, and how much it took. */
export interface DriveFill extends GeoPoint {
  /** When the truck reached and left the pumps (the card is paid on leaving). */
  arrivedAtMs: number;
  leftAtMs: number;
  gallons: number;
  /** Road miles along the city-pair route of the station's foot. */
  routeMile: number;
}

/** {@link scriptDrive}, with the fills the truck truly made (what its fuel card records). */
export function scriptDriveWithFills(
  spec: DriveSpec,
  shown: ShownStop | null,
  startMs: number,
  other: ShownStop | null = null,
): { crumbs: DriveCrumb[]; fills: DriveFill[] } {
  const legs = legsOf(spec, shown, other);
  const noise = seededRandom(spec.noiseSeed);
  const percentPerMile = 100 / (spec.mpg * spec.tankGallons);
  const crumbs: DriveCrumb[] = [];
  const fills: DriveFill[] = [];
  let legStartMs = startMs;
  let fuel = spec.startFuelPercent;
  let tick = startMs + spec.cadenceSeconds * 1000;
  for (const leg of legs) {
    const durationMs = leg.mph > 0 ? (leg.miles / leg.mph) * 3_600_000 : (leg.minutes ?? 0) * 60_000;
    const legEndMs = legStartMs + durationMs;
    const fuelAtStart = fuel;
    for (; tick <= legEndMs; tick += spec.cadenceSeconds * 1000) {
      const f = durationMs > 0 ? (tick - legStartMs) / durationMs : 1;
      const { point, routeMile } = leg.at(f);
      let level = fuelAtStart - leg.miles * f * percentPerMile;
      if (leg.fillTo !== undefined) level = fillLevel(fuelAtStart, leg.fillTo, tick - legStartMs, durationMs);
      crumbs.push(device(spec, noise, { tick, point, routeMile, level, moving: leg.mph > 0, leg }));
    }
    if (leg.fillTo !== undefined) {
      fills.push({
        ...leg.at(1).point,
        arrivedAtMs: legStartMs,
        leftAtMs: legEndMs,
        gallons: Math.round(((leg.fillTo - fuelAtStart) / 100) * spec.tankGallons * 10) / 10,
        routeMile: leg.at(1).routeMile,
      });
    }
    fuel = leg.fillTo ?? fuelAtStart - leg.miles * percentPerMile;
    legStartMs = legEndMs;
  }
  return { crumbs, fills };
}

/** The pump runs from two minutes after arriving until two minutes before leaving. */
function fillLevel(before: number, after: number, sinceMs: number, dwellMs: number): number {
  const pumpStart = 2 * 60_000;
  const pumpEnd = Math.max(pumpStart + 60_000, dwellMs - 2 * 60_000);
  const share = Math.min(1, Math.max(0, (sinceMs - pumpStart) / (pumpEnd - pumpStart)));
  return before + share * (after - before);
}

function device(
  spec: DriveSpec,
  noise: () => number,
  truth: { tick: number; point: GeoPoint; routeMile: number; level: number; moving: boolean; leg: Leg },
): DriveCrumb {
  const slosh = (noise() * 2 - 1) * spec.sloshPercent * (truth.moving ? 1 : 0.25);
  const ruler = milesRulerAt(truth.point.latitude);
  const [longitude, latitude] = ruler.destination(
    toLonLat(truth.point),
    noise() * spec.gpsJitterMiles,
    noise() * 360,
  ) as [number, number];
  const speed = truth.moving ? truth.leg.mph + (noise() * 2 - 1) * 2 : 0;
  return {
    recordedAtMs: truth.tick,
    ...round5({ latitude, longitude }),
    fuelLevelPercent: round1(Math.min(100, Math.max(0, truth.level + slosh))),
    speedMph: Math.max(0, Math.round(speed)),
    routeMile: truth.routeMile,
    phase: truth.leg.phase,
  };
}

const round5 = (point: GeoPoint): GeoPoint => ({
  latitude: Math.round(point.latitude * 1e5) / 1e5,
  longitude: Math.round(point.longitude * 1e5) / 1e5,
});

/** A POST /v1/locations as the provider sends it: when, and which trucks' breadcrumbs in what order. */
export interface DeliveryPost {
  postedAtMs: number;
  items: { drive: number; crumb: DriveCrumb }[];
}

/** How long a buffered provider holds breadcrumbs before it uploads them (the 29 minutes). */
export const BUFFER_WINDOW_MS = 29 * 60_000;
/** The largest POST a provider sends (the API's limit is 500 items). */
const MAX_POST_ITEMS = 400;

/**
 * When and how the group's breadcrumbs reach the API. Live: each a few seconds after it was
 * recorded. Buffered: every 29 minutes, that window of every truck in one to three POSTs within a
 * minute. Hours late: everything, in the same windows, one a minute from `lateByMinutes` after the
 * last breadcrumb.
 */
export function deliveryPosts(
  group: DriveGroup,
  crumbs: ReadonlyMap<number, readonly DriveCrumb[]>,
  startMs: number,
  seed: number,
): DeliveryPost[] {
  const random = seededRandom(seed);
  const posts: DeliveryPost[] = [];
  const all = [...crumbs].flatMap(([drive, list]) => list.map((crumb) => ({ drive, crumb })));
  if (group.delivery === 'live') {
    for (const item of all) {
      posts.push({
        postedAtMs: item.crumb.recordedAtMs + Math.round(between(random, 2, 30) * 1000),
        items: [item],
      });
    }
  } else {
    const lastMs = Math.max(...all.map((item) => item.crumb.recordedAtMs));
    const windows = new Map<number, typeof all>();
    for (const item of all) {
      const window = Math.floor((item.crumb.recordedAtMs - startMs - 1) / BUFFER_WINDOW_MS);
      windows.set(window, [...(windows.get(window) ?? []), item]);
    }
    for (const [window, items] of [...windows].sort(([a], [b]) => a - b)) {
      const windowEndMs = startMs + (window + 1) * BUFFER_WINDOW_MS;
      // A backlog goes up window after window, each within its own minute.
      const uploadMs =
        group.delivery === 'buffered' ? windowEndMs : lastMs + group.lateByMinutes * 60_000 + window * 60_000;
      items.sort((a, b) => a.crumb.recordedAtMs - b.crumb.recordedAtMs);
      const parts = Math.max(Math.ceil(items.length / MAX_POST_ITEMS), 1 + Math.floor(random() * 3));
      const size = Math.ceil(items.length / parts);
      for (let part = 0; part < parts; part++) {
        const slice = items.slice(part * size, (part + 1) * size);
        if (slice.length === 0) continue;
        posts.push({
          postedAtMs: uploadMs + Math.round(((part + random()) / parts) * 59_000),
          items: group.outOfOrder ? shuffled(slice, random) : slice,
        });
      }
    }
  }
  return posts.sort((a, b) => a.postedAtMs - b.postedAtMs);
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
