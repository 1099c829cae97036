import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';

/**
 * The enumeration guard (docs/enumeration-and-finance.md, `enumeration_suspected`): a key whose station queries sweep
 * the map — many distinct grid cells in a short window, laid out on a regular lattice (or simply too
 * many), or covering too much of the map, far from its fleet's own vehicles — is refused for a
 * cool-down. Pure: the window item, the fleet's positions and the clock come in as values.
 *
 * Why a fleet around its own trucks never trips it: the last condition. However many cells a
 * 500-truck fleet touches, they lie near its trucks, so the share of far cells stays low.
 */
export interface EnumerationGuardSettings {
  /** The sliding window the distinct cells are counted in. */
  windowMinutes: number;
  /** Distinct query cells (anchors) in the window from which a regular lattice is suspicious. */
  latticeMinCells: number;
  /** Distinct query cells (anchors) in the window that are suspicious whatever their layout. */
  maxDistinctCells: number;
  /** Distinct areas (0.5° squares) the window's queries covered that are suspicious. */
  maxAreaCells: number;
  /** A cell farther than this from every vehicle of the fleet counts as "far". */
  fleetRadiusMiles: number;
  /** The share of far cells (0..1) at which a suspicious window is a sweep. */
  farShare: number;
  /** How long a tripped key is refused. */
  coolDownMinutes: number;
}

/**
 * A plan that sets no `maxAreaCells` gets this many per allowed query cell (starter 180, growth
 * 240): a query covers up to ~20 areas at the largest radius and ~6 at the default one, so 15
 * lookups in 15 minutes stay well below; the lower 48 are ~3,300 areas.
 */
export const AREA_CELLS_PER_DISTINCT_CELL = 1.5;

/** For plans that do not set their own: a dispatcher's day never comes near these. */
export const DEFAULT_ENUMERATION_GUARD: EnumerationGuardSettings = {
  windowMinutes: 15,
  latticeMinCells: 40,
  maxDistinctCells: 160,
  maxAreaCells: 160 * AREA_CELLS_PER_DISTINCT_CELL,
  fleetRadiusMiles: 100,
  farShare: 0.8,
  coolDownMinutes: 60,
};

export function enumerationGuardOf(
  overrides: Partial<EnumerationGuardSettings> | undefined,
): EnumerationGuardSettings {
  const maxDistinctCells = overrides?.maxDistinctCells ?? DEFAULT_ENUMERATION_GUARD.maxDistinctCells;
  return {
    ...DEFAULT_ENUMERATION_GUARD,
    // A plan that tightens the cell count tightens the area count with it.
    maxAreaCells: Math.round(maxDistinctCells * AREA_CELLS_PER_DISTINCT_CELL),
    ...overrides,
  };
}

/** Cells are 0.1° squares (~7 miles north-south): finer than any sweep step worth the name. */
export const CELL_DEGREES = 0.1;
/** Areas are 0.5° squares (~35 miles north-south): what a query's radius or corridor covers. */
export const AREA_DEGREES = 0.5;
/** Area ids carry this prefix, so cells and areas share one set per bucket of the window item. */
const AREA_PREFIX = 'A';
/** Areas a radius query records at most (a 50-mile radius covers ~20): bounds the write. */
export const MAX_AREAS_PER_QUERY = 24;
/**
 * Areas a corridor records at most, evenly spread along the route: a corridor is at most 5 miles
 * wide, a seventh of an area, and returns at most 50 stations, so a cross-country route counts as
 * about what two wide radius queries do, not as the ~100 areas it crosses.
 */
export const MAX_CORRIDOR_AREAS = 12;
/** Along a corridor, one sample every this many miles: finer than an area, so none is skipped. */
const CORRIDOR_SAMPLE_MILES = 10;
/**
 * The window is stored as this many time buckets of `windowMinutes / WINDOW_BUCKETS` each (3
 * minutes of a 15-minute window): a query adds its cells to the current bucket's set, and a
 * bucket that has left the window is removed whole. The window judged is the current bucket and
 * the ones before it: between 4/5 of `windowMinutes` and all of it.
 */
export const WINDOW_BUCKETS = 5;
/**
 * A lattice: the distances from each cell to its nearest other cell barely vary (coefficient of
 * variation at most this). A sweep on a grid scores ~0; random scattered points ~0.5.
 */
export const LATTICE_MAX_VARIATION = 0.2;

/** What one station query touches: the cells it is asked at, and the areas its answer covers. */
export interface QueryFootprint {
  /** The cells of the query's own points (a radius query's centre; a corridor's two ends). */
  anchors: string[];
  /** The areas the radius or corridor covers (at most {@link MAX_AREAS_PER_QUERY}). */
  areas: string[];
}

/** What the per-key window item holds. */
export interface EnumerationWindow {
  /** Time bucket index → the cells and areas recorded in it. */
  buckets: ReadonlyMap<number, readonly string[]>;
  /** Epoch ms until which the key is refused; null when it is not. */
  blockedUntilMs: number | null;
  /** What the window that tripped the guard held: repeated on every refusal of the cool-down. */
  blockedFinding: Finding | null;
  /**
   * Epoch ms until which a suspicious window was found near the fleet: queries are answered
   * without being recorded, so a busy fleet reads its vehicles' positions at most once per
   * {@link VETTED_FOR_MS} and its window item stays small.
   */
  vettedUntilMs: number | null;
}

export const VETTED_FOR_MS = 2 * 60_000;

export const EMPTY_WINDOW: EnumerationWindow = {
  buckets: new Map(),
  blockedUntilMs: null,
  blockedFinding: null,
  vettedUntilMs: null,
};

/** Which rule found the window suspicious, against which threshold, with how many. */
export interface Finding {
  rule: 'lattice' | 'cells' | 'areas';
  limit: number;
  used: number;
}

function gridId(point: GeoPoint, degrees: number): string {
  return `${Math.floor(point.latitude / degrees)}:${Math.floor(point.longitude / degrees)}`;
}

export function cellOf(point: GeoPoint): string {
  return gridId(point, CELL_DEGREES);
}

export function areaOf(point: GeoPoint): string {
  return `${AREA_PREFIX}${gridId(point, AREA_DEGREES)}`;
}

const isArea = (entry: string) => entry.startsWith(AREA_PREFIX);

function gridIndices(entry: string): [number, number] {
  const [lat, lon] = (isArea(entry) ? entry.slice(AREA_PREFIX.length) : entry).split(':').map(Number);
  return [lat ?? 0, lon ?? 0];
}

/** The centre of a cell or an area. */
export function entryCenter(entry: string): GeoPoint {
  const degrees = isArea(entry) ? AREA_DEGREES : CELL_DEGREES;
  const [lat, lon] = gridIndices(entry);
  return { latitude: (lat + 0.5) * degrees, longitude: (lon + 0.5) * degrees };
}

/** At most `max` of `items`, evenly spread over the list (its order kept). */
function evenly<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)] as T);
}

const MILES_PER_DEGREE_LATITUDE = 69;

/** GET /v1/stations: the centre's cell, and every area the disc of `radiusMiles` reaches. */
export function nearbyFootprint(center: GeoPoint, radiusMiles: number): QueryFootprint {
  const latSpan = radiusMiles / MILES_PER_DEGREE_LATITUDE;
  const lonSpan =
    radiusMiles / (MILES_PER_DEGREE_LATITUDE * Math.max(0.01, Math.cos((center.latitude * Math.PI) / 180)));
  const south = Math.floor((center.latitude - latSpan) / AREA_DEGREES);
  const north = Math.floor((center.latitude + latSpan) / AREA_DEGREES);
  const west = Math.floor((center.longitude - lonSpan) / AREA_DEGREES);
  const east = Math.floor((center.longitude + lonSpan) / AREA_DEGREES);
  const areas: string[] = [];
  for (let lat = south; lat <= north; lat += 1) {
    for (let lon = west; lon <= east; lon += 1) {
      // The area's point nearest the centre: inside the disc means the answer may hold its stations.
      const nearest = {
        latitude: clamp(center.latitude, lat * AREA_DEGREES, (lat + 1) * AREA_DEGREES),
        longitude: clamp(center.longitude, lon * AREA_DEGREES, (lon + 1) * AREA_DEGREES),
      };
      if (haversineMiles(center, nearest) <= radiusMiles) areas.push(`${AREA_PREFIX}${lat}:${lon}`);
    }
  }
  return { anchors: [cellOf(center)], areas: evenly(areas, MAX_AREAS_PER_QUERY) };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * POST /v1/stations/along-route: the cells of the route's two ends, and the areas the route passes
 * through (sampled every {@link CORRIDOR_SAMPLE_MILES}; a corridor is at most 5 miles wide, well
 * inside an area). `line` is the client's polyline, or the straight line between origin and
 * destination when the route is still to be computed (the guard runs before any routing is spent).
 */
export function corridorFootprint(line: readonly GeoPoint[]): QueryFootprint {
  const first = line[0];
  const last = line.at(-1);
  if (!first || !last) return { anchors: [], areas: [] };
  const areas = new Set<string>([areaOf(first)]);
  for (let i = 1; i < line.length; i += 1) {
    const from = line[i - 1] as GeoPoint;
    const to = line[i] as GeoPoint;
    const steps = Math.ceil(haversineMiles(from, to) / CORRIDOR_SAMPLE_MILES);
    for (let step = 1; step <= steps; step += 1) {
      areas.add(
        areaOf({
          latitude: from.latitude + ((to.latitude - from.latitude) * step) / steps,
          longitude: from.longitude + ((to.longitude - from.longitude) * step) / steps,
        }),
      );
    }
  }
  return {
    anchors: [...new Set([cellOf(first), cellOf(last)])],
    areas: evenly([...areas], MAX_CORRIDOR_AREAS),
  };
}

/** Everything a query records, deduplicated: its cells and its areas. */
export function footprintEntries(footprint: QueryFootprint): string[] {
  return [...new Set([...footprint.anchors, ...footprint.areas])];
}

export function bucketMs(settings: EnumerationGuardSettings): number {
  return (settings.windowMinutes * 60_000) / WINDOW_BUCKETS;
}

export function bucketOf(nowMs: number, settings: EnumerationGuardSettings): number {
  return Math.floor(nowMs / bucketMs(settings));
}

/** The oldest bucket still in the window at `nowMs` (after a cool-down, none from before it ended). */
function firstLiveBucket(window: EnumerationWindow, nowMs: number, settings: EnumerationGuardSettings) {
  const first = bucketOf(nowMs, settings) - WINDOW_BUCKETS + 1;
  if (window.blockedUntilMs === null) return first;
  return Math.max(first, bucketOf(window.blockedUntilMs, settings));
}

/** The buckets no longer in the window: the store removes them. */
export function staleBuckets(
  window: EnumerationWindow,
  nowMs: number,
  settings: EnumerationGuardSettings,
): number[] {
  const first = firstLiveBucket(window, nowMs, settings);
  return [...window.buckets.keys()].filter((bucket) => bucket < first);
}

/** The outcome of a query against the window, before the fleet's positions are consulted. */
export type WindowStep =
  /** Still cooling down from an earlier sweep: refuse with what the sweep's window held. */
  | { kind: 'blocked'; blockedUntilMs: number; finding: Finding }
  /** Found near the fleet moments ago: answered, nothing recorded. */
  | { kind: 'vetted' }
  /** Nothing suspicious. */
  | { kind: 'clear'; window: EnumerationWindow }
  /** Looks like a sweep: consult the fleet's positions ({@link judgeSuspicion}) before refusing. */
  | { kind: 'suspicious'; window: EnumerationWindow; finding: Finding; entries: string[] };

/** The refusal of a key still cooling down, or the pass of a vetted one; null otherwise. */
export function heldStep(window: EnumerationWindow, nowMs: number): WindowStep | null {
  if (window.blockedUntilMs !== null && window.blockedUntilMs > nowMs) {
    return {
      kind: 'blocked',
      blockedUntilMs: window.blockedUntilMs,
      // An item from before the finding was stored refuses with what is known: nothing counted.
      finding: window.blockedFinding ?? { rule: 'cells', limit: 0, used: 0 },
    };
  }
  if (window.vettedUntilMs !== null && window.vettedUntilMs > nowMs) return { kind: 'vetted' };
  return null;
}

/**
 * Adds a query to the window as the store does (to the current bucket, unless the key is cooling
 * down or vetted) and assesses it: the pure model of one guarded query.
 */
export function recordQuery(
  current: EnumerationWindow,
  footprint: QueryFootprint,
  nowMs: number,
  settings: EnumerationGuardSettings,
): WindowStep {
  const held = heldStep(current, nowMs);
  if (held) return held;
  const bucket = bucketOf(nowMs, settings);
  const buckets = new Map(current.buckets);
  buckets.set(bucket, [...new Set([...(buckets.get(bucket) ?? []), ...footprintEntries(footprint)])]);
  for (const stale of staleBuckets({ ...current, buckets }, nowMs, settings)) buckets.delete(stale);
  return assessWindow({ ...current, buckets }, nowMs, settings);
}

/**
 * Judges a window that already holds the current query's cells (the store adds them atomically
 * first): only the buckets still in the window (and none from before a lifted cool-down) count.
 */
export function assessWindow(
  stored: EnumerationWindow,
  nowMs: number,
  settings: EnumerationGuardSettings,
): WindowStep {
  const held = heldStep(stored, nowMs);
  if (held) return held;
  const first = firstLiveBucket(stored, nowMs, settings);
  const buckets = new Map([...stored.buckets].filter(([bucket]) => bucket >= first));
  const window: EnumerationWindow = { ...stored, buckets };
  const entries = [...new Set([...buckets.values()].flat())];
  const anchors = entries.filter((entry) => !isArea(entry));
  const areas = entries.length - anchors.length;
  const finding = findingOf(anchors, areas, settings);
  return finding ? { kind: 'suspicious', window, finding, entries } : { kind: 'clear', window };
}

function findingOf(
  anchors: readonly string[],
  areas: number,
  settings: EnumerationGuardSettings,
): Finding | null {
  if (anchors.length >= settings.maxDistinctCells) {
    return { rule: 'cells', limit: settings.maxDistinctCells, used: anchors.length };
  }
  if (areas >= settings.maxAreaCells) return { rule: 'areas', limit: settings.maxAreaCells, used: areas };
  if (anchors.length >= settings.latticeMinCells && latticeVariation(anchors) <= LATTICE_MAX_VARIATION) {
    return { rule: 'lattice', limit: settings.latticeMinCells, used: anchors.length };
  }
  return null;
}

/**
 * Coefficient of variation (standard deviation / mean) of each cell's distance to its nearest
 * other cell, in cell units. O(n²), only on a window's anchors once there are many.
 */
export function latticeVariation(cells: readonly string[]): number {
  if (cells.length < 3) return Number.POSITIVE_INFINITY;
  const points = cells.map(gridIndices);
  const nearest = points.map(([lat, lon], i) => {
    let best = Number.POSITIVE_INFINITY;
    for (let j = 0; j < points.length; j += 1) {
      if (j === i) continue;
      const [otherLat, otherLon] = points[j] as [number, number];
      best = Math.min(best, Math.hypot(lat - otherLat, lon - otherLon));
    }
    return best;
  });
  const mean = nearest.reduce((sum, d) => sum + d, 0) / nearest.length;
  const variance = nearest.reduce((sum, d) => sum + (d - mean) ** 2, 0) / nearest.length;
  return Math.sqrt(variance) / mean;
}

/** The share of `entries` (cells and areas) farther than the plan's radius from every vehicle. */
export function farShare(
  entries: readonly string[],
  vehicles: readonly GeoPoint[],
  radiusMiles: number,
): number {
  if (entries.length === 0) return 0;
  const far = entries.filter((entry) => {
    const center = entryCenter(entry);
    return !vehicles.some((vehicle) => haversineMiles(center, vehicle) <= radiusMiles);
  });
  return far.length / entries.length;
}

export type GuardVerdict =
  /** Near the fleet: the window starts afresh and is not recorded until `vettedUntilMs`. */
  | { kind: 'allow'; vettedUntilMs: number; window: EnumerationWindow }
  /** A sweep: refused until `blockedUntilMs`; the window starts afresh after it. */
  | { kind: 'trip'; blockedUntilMs: number; finding: Finding; window: EnumerationWindow };

/** A suspicious window is a sweep when most of its cells and areas are far from the fleet's vehicles. */
export function judgeSuspicion(
  step: Extract<WindowStep, { kind: 'suspicious' }>,
  vehicles: readonly GeoPoint[],
  nowMs: number,
  settings: EnumerationGuardSettings,
): GuardVerdict {
  if (farShare(step.entries, vehicles, settings.fleetRadiusMiles) < settings.farShare) {
    const vettedUntilMs = nowMs + VETTED_FOR_MS;
    return { kind: 'allow', vettedUntilMs, window: { ...EMPTY_WINDOW, vettedUntilMs } };
  }
  const blockedUntilMs = nowMs + settings.coolDownMinutes * 60_000;
  return {
    kind: 'trip',
    blockedUntilMs,
    finding: step.finding,
    window: { ...EMPTY_WINDOW, blockedUntilMs, blockedFinding: step.finding },
  };
}
