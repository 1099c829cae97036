import { type GeoPoint, haversineMiles } from '../../geo/distance.ts';

/**
 * The enumeration guard (spec section 8, `enumeration_suspected`): a key whose station queries sweep
 * the map — many distinct grid cells in a short window, laid out on a regular lattice (or simply too
 * many), and far from its fleet's own vehicles — is refused for a cool-down. Pure: the window item,
 * the fleet's positions and the clock come in as values.
 *
 * Why a fleet around its own trucks never trips it: the last condition. However many cells a
 * 500-truck fleet touches, they lie near its trucks, so the share of far cells stays low.
 */
export interface EnumerationGuardSettings {
  /** The sliding window the distinct cells are counted in. */
  windowMinutes: number;
  /** Distinct cells in the window from which a regular lattice is suspicious. */
  latticeMinCells: number;
  /** Distinct cells in the window that are suspicious whatever their layout. */
  maxDistinctCells: number;
  /** A cell farther than this from every vehicle of the fleet counts as "far". */
  fleetRadiusMiles: number;
  /** The share of far cells (0..1) at which a suspicious window is a sweep. */
  farShare: number;
  /** How long a tripped key is refused. */
  coolDownMinutes: number;
}

/** For plans that do not set their own: a dispatcher's day never comes near these. */
export const DEFAULT_ENUMERATION_GUARD: EnumerationGuardSettings = {
  windowMinutes: 15,
  latticeMinCells: 40,
  maxDistinctCells: 160,
  fleetRadiusMiles: 100,
  farShare: 0.8,
  coolDownMinutes: 60,
};

export function enumerationGuardOf(
  overrides: Partial<EnumerationGuardSettings> | undefined,
): EnumerationGuardSettings {
  return { ...DEFAULT_ENUMERATION_GUARD, ...overrides };
}

/** Cells are 0.1° squares (~7 miles north-south): finer than any sweep step worth the name. */
export const CELL_DEGREES = 0.1;
/**
 * Entries the window item keeps at most (oldest dropped first): bounds the item (< 20 KB) and the
 * decision's work, and stays above any plan's `maxDistinctCells` so the count is exact.
 */
export const MAX_WINDOW_ENTRIES = 600;
/**
 * A lattice: the distances from each cell to its nearest other cell barely vary (coefficient of
 * variation at most this). A sweep on a grid scores ~0; random scattered points ~0.5.
 */
export const LATTICE_MAX_VARIATION = 0.2;

export interface CellVisit {
  /** `latIndex:lonIndex` of the {@link CELL_DEGREES} grid. */
  cell: string;
  atMs: number;
}

/** What the per-key window item holds. */
export interface EnumerationWindow {
  visits: CellVisit[];
  /** Epoch ms until which the key is refused; null when it is not. */
  blockedUntilMs: number | null;
  /**
   * Epoch ms until which a suspicious window was found near the fleet and is not judged again: a
   * busy fleet reads its vehicles' positions at most once per {@link VETTED_FOR_MS}, and a real
   * sweep is caught at most that much later (its cells stay in the window).
   */
  vettedUntilMs: number | null;
}

export const VETTED_FOR_MS = 2 * 60_000;

export const EMPTY_WINDOW: EnumerationWindow = { visits: [], blockedUntilMs: null, vettedUntilMs: null };

export function cellOf(point: GeoPoint): string {
  return `${Math.floor(point.latitude / CELL_DEGREES)}:${Math.floor(point.longitude / CELL_DEGREES)}`;
}

function cellIndices(cell: string): [number, number] {
  const [lat, lon] = cell.split(':').map(Number);
  return [lat ?? 0, lon ?? 0];
}

export function cellCenter(cell: string): GeoPoint {
  const [lat, lon] = cellIndices(cell);
  return { latitude: (lat + 0.5) * CELL_DEGREES, longitude: (lon + 0.5) * CELL_DEGREES };
}

/** The outcome of adding a query to the window, before the fleet's positions are consulted. */
export type WindowStep =
  /** Still cooling down from an earlier sweep: refuse, window unchanged. */
  | { kind: 'blocked'; blockedUntilMs: number; distinctCells: number }
  /** Nothing suspicious: store `window` and answer. */
  | { kind: 'clear'; window: EnumerationWindow }
  /** Looks like a sweep: consult the fleet's positions ({@link judgeSuspicion}) before refusing. */
  | { kind: 'suspicious'; window: EnumerationWindow; cells: string[] };

/** Adds a query's cells to the window and says whether the window now looks like a sweep. */
export function recordQuery(
  current: EnumerationWindow,
  queryCells: readonly string[],
  nowMs: number,
  settings: EnumerationGuardSettings,
): WindowStep {
  const blocked = blockedStep(current, nowMs);
  if (blocked) return blocked;
  return assessWindow(
    { ...current, visits: [...current.visits, ...visitsOf(queryCells, nowMs)] },
    nowMs,
    settings,
  );
}

/** One visit per distinct cell of a query. */
export function visitsOf(queryCells: readonly string[], nowMs: number): CellVisit[] {
  return [...new Set(queryCells)].map((cell) => ({ cell, atMs: nowMs }));
}

/** The refusal of a key still cooling down; null when it is not. */
export function blockedStep(window: EnumerationWindow, nowMs: number): WindowStep | null {
  if (window.blockedUntilMs === null || window.blockedUntilMs <= nowMs) return null;
  const distinctCells = new Set(window.visits.map((visit) => visit.cell)).size;
  return { kind: 'blocked', blockedUntilMs: window.blockedUntilMs, distinctCells };
}

/**
 * Judges a window that already holds the current query's visits (the store appends them
 * atomically first): drops what is older than the window, or than a lifted block (the cool-down is
 * a fresh start), keeps the newest {@link MAX_WINDOW_ENTRIES}, and says whether it looks like a sweep.
 */
export function assessWindow(
  stored: EnumerationWindow,
  nowMs: number,
  settings: EnumerationGuardSettings,
): WindowStep {
  const blocked = blockedStep(stored, nowMs);
  if (blocked) return blocked;
  const since = Math.max(nowMs - settings.windowMinutes * 60_000, (stored.blockedUntilMs ?? 0) - 1);
  const visits = stored.visits.filter((visit) => visit.atMs > since).slice(-MAX_WINDOW_ENTRIES);
  const vettedUntilMs =
    stored.vettedUntilMs !== null && stored.vettedUntilMs > nowMs ? stored.vettedUntilMs : null;
  const window: EnumerationWindow = { visits, blockedUntilMs: null, vettedUntilMs };
  const cells = [...new Set(visits.map((visit) => visit.cell))];
  const suspicious =
    cells.length >= settings.maxDistinctCells ||
    (cells.length >= settings.latticeMinCells && latticeVariation(cells) <= LATTICE_MAX_VARIATION);
  return suspicious && vettedUntilMs === null
    ? { kind: 'suspicious', window, cells }
    : { kind: 'clear', window };
}

/**
 * Coefficient of variation (standard deviation / mean) of each cell's distance to its nearest
 * other cell, in cell units. O(n²) on at most {@link MAX_WINDOW_ENTRIES} cells, only when many.
 */
export function latticeVariation(cells: readonly string[]): number {
  if (cells.length < 3) return Number.POSITIVE_INFINITY;
  const points = cells.map(cellIndices);
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

/** The share of `cells` farther than the plan's radius from every one of the fleet's vehicles. */
export function farShare(
  cells: readonly string[],
  vehicles: readonly GeoPoint[],
  radiusMiles: number,
): number {
  if (cells.length === 0) return 0;
  const far = cells.filter((cell) => {
    const center = cellCenter(cell);
    return !vehicles.some((vehicle) => haversineMiles(center, vehicle) <= radiusMiles);
  });
  return far.length / cells.length;
}

export type GuardVerdict =
  | { kind: 'allow'; window: EnumerationWindow }
  | { kind: 'trip'; window: EnumerationWindow; blockedUntilMs: number; distinctCells: number };

/** A suspicious window is a sweep when most of its cells are far from the fleet's vehicles. */
export function judgeSuspicion(
  step: Extract<WindowStep, { kind: 'suspicious' }>,
  vehicles: readonly GeoPoint[],
  nowMs: number,
  settings: EnumerationGuardSettings,
): GuardVerdict {
  if (farShare(step.cells, vehicles, settings.fleetRadiusMiles) < settings.farShare) {
    return { kind: 'allow', window: { ...step.window, vettedUntilMs: nowMs + VETTED_FOR_MS } };
  }
  const blockedUntilMs = nowMs + settings.coolDownMinutes * 60_000;
  return {
    kind: 'trip',
    window: { ...step.window, blockedUntilMs },
    blockedUntilMs,
    distinctCells: step.cells.length,
  };
}

/** The threshold a window of `distinctCells` crossed, for the problem's `limit`. */
export function crossedLimit(distinctCells: number, settings: EnumerationGuardSettings): number {
  return distinctCells >= settings.maxDistinctCells ? settings.maxDistinctCells : settings.latticeMinCells;
}
