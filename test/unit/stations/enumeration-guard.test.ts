import { describe, expect, it } from 'vitest';
import { PLAN_CATALOG } from '../../../shared/domain/plan-catalog.ts';
import {
  cellOf,
  EMPTY_WINDOW,
  type EnumerationGuardSettings,
  type EnumerationWindow,
  enumerationGuardOf,
  judgeSuspicion,
  latticeVariation,
  MAX_WINDOW_ENTRIES,
  recordQuery,
  VETTED_FOR_MS,
} from '../../../shared/domain/stations/enumeration-guard.ts';
import type { GeoPoint } from '../../../shared/geo/distance.ts';
import { loadHighwayGraph } from '../../../shared/geo/highway-graph.ts';
import { seededRandom } from '../../support/seeded-random.ts';

const START = Date.parse('2026-11-23T14:00:00Z');
const starter = enumerationGuardOf(PLAN_CATALOG.find((plan) => plan.name === 'starter')?.enumerationGuard);

type Outcome = 'allow' | 'trip' | 'blocked';

/**
 * Runs queries through the guard as the use case does, one window carried from query to query;
 * counts how often the fleet's positions were consulted.
 */
function replay(
  queries: readonly { points: GeoPoint[]; atMs: number }[],
  vehicles: readonly GeoPoint[],
  settings: EnumerationGuardSettings,
  initial: EnumerationWindow = EMPTY_WINDOW,
) {
  let window = initial;
  let fleetReads = 0;
  const outcomes: Outcome[] = [];
  for (const query of queries) {
    const step = recordQuery(window, query.points.map(cellOf), query.atMs, settings);
    if (step.kind === 'blocked') {
      outcomes.push('blocked');
      continue;
    }
    if (step.kind === 'clear') {
      window = step.window;
      outcomes.push('allow');
      continue;
    }
    fleetReads += 1;
    const verdict = judgeSuspicion(step, vehicles, query.atMs, settings);
    window = verdict.window;
    outcomes.push(verdict.kind);
  }
  return { outcomes, window, fleetReads };
}

/** A regular sweep: one query every `stepDegrees` over a rectangle, `everyMs` apart. */
function latticeSweep(south: number, west: number, rows: number, columns: number, stepDegrees = 0.5) {
  const queries: { points: GeoPoint[]; atMs: number }[] = [];
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      queries.push({
        points: [{ latitude: south + row * stepDegrees, longitude: west + column * stepDegrees }],
        atMs: START + queries.length * 5_000,
      });
    }
  }
  return queries;
}

/** 500 trucks somewhere on the interstates: points of the bundled highway graph's geometry. */
function trucksOnInterstates(count: number, random: () => number): GeoPoint[] {
  const { edges } = loadHighwayGraph();
  return Array.from({ length: count }, () => {
    const edge = edges[Math.floor(random() * edges.length)];
    const geometry = edge?.geometry ?? [];
    const point = geometry[Math.floor(random() * geometry.length)];
    if (!point) throw new Error('the highway graph has an edge without geometry');
    return { latitude: point.latitude, longitude: point.longitude };
  });
}

/** A point up to `miles` from `center` in a random direction (1° latitude ≈ 69 miles). */
function near(center: GeoPoint, miles: number, random: () => number): GeoPoint {
  const distance = random() * miles;
  const bearing = random() * 2 * Math.PI;
  const latitude = center.latitude + (distance * Math.cos(bearing)) / 69;
  const longitude =
    center.longitude + (distance * Math.sin(bearing)) / (69 * Math.cos((center.latitude * Math.PI) / 180));
  return { latitude, longitude };
}

/** A fleet parked around Dallas: the sweeps below run far from it. */
const texasFleet: GeoPoint[] = [
  { latitude: 32.78, longitude: -96.8 },
  { latitude: 32.9, longitude: -97.0 },
];

describe('the enumeration rule', () => {
  it('trips on a lattice sweep far from the fleet, with the cool-down end', () => {
    // Arrange: 6×6 queries half a degree apart over Nevada, one every 5 s.
    const sweep = latticeSweep(37, -119, 6, 6);

    // Act
    const { outcomes, window } = replay(sweep, texasFleet, starter);

    // Assess: allowed until the 30th distinct cell (starter's latticeMinCells), then refused.
    const firstTrip = outcomes.indexOf('trip');
    expect(firstTrip).toBe(starter.latticeMinCells - 1);
    expect(outcomes.slice(0, firstTrip).every((outcome) => outcome === 'allow')).toBe(true);
    expect(outcomes.slice(firstTrip + 1).every((outcome) => outcome === 'blocked')).toBe(true);
    const trippedAt = sweep[firstTrip]?.atMs ?? 0;
    expect(window.blockedUntilMs).toBe(trippedAt + starter.coolDownMinutes * 60_000);
  });

  it('does not trip on the same lattice swept around the fleet’s own vehicles', () => {
    // Arrange: vehicles spread over the swept rectangle.
    const fleet = latticeSweep(37, -119, 3, 3, 1).flatMap((query) => query.points);

    // Act / Assess
    expect(replay(latticeSweep(37, -119, 6, 6), fleet, starter).outcomes).not.toContain('trip');
  });

  it('trips on too many distinct cells far from the fleet even off a lattice', () => {
    // Arrange: random points over the western states, faster than any dispatcher.
    const random = seededRandom(7);
    const queries = Array.from({ length: starter.maxDistinctCells + 20 }, (_, i) => ({
      points: [{ latitude: 35 + random() * 10, longitude: -122 + random() * 12 }],
      atMs: START + i * 2_000,
    }));

    // Act
    const { outcomes } = replay(queries, texasFleet, starter);

    // Assess
    expect(outcomes).toContain('trip');
  });

  it('never trips for a 500-truck fleet querying around its own trucks on the interstates', () => {
    // Arrange: every truck asks for stations within 30 miles of where it is, twice an hour, for
    // three hours, on the starter plan (the strictest); the trucks move on between rounds.
    const random = seededRandom(500);
    const queries: { points: GeoPoint[]; atMs: number }[] = [];
    let trucks = trucksOnInterstates(500, random);
    for (let round = 0; round < 6; round += 1) {
      trucks = trucks.map((truck) => near(truck, 15, random));
      for (const [i, truck] of trucks.entries()) {
        queries.push({ points: [near(truck, 30, random)], atMs: START + round * 1_800_000 + i * 3_600 });
      }
    }

    // Act: the latest positions are the last round's.
    const { outcomes, fleetReads } = replay(queries, trucks, starter);

    // Assess: no refusal, and the positions were read only now and then (vetted windows).
    expect(outcomes.filter((outcome) => outcome !== 'allow')).toEqual([]);
    expect(fleetReads).toBeGreaterThan(0);
    expect(fleetReads).toBeLessThanOrEqual((6 * 30 * 60_000) / VETTED_FOR_MS + 6);
  });

  it.each([1, 2, 3, 4, 5])(
    'never trips for a dispatcher querying random places, even with no vehicle nearby (seed %i)',
    (seed) => {
      // Arrange: 60 queries an hour anywhere in the lower 48 (a dispatcher planning loads).
      const random = seededRandom(seed);
      const queries = Array.from({ length: 60 }, (_, i) => ({
        points: [{ latitude: 30 + random() * 17, longitude: -120 + random() * 40 }],
        atMs: START + i * 60_000,
      }));

      // Act / Assess
      expect(replay(queries, [], starter).outcomes).not.toContain('trip');
    },
  );

  it('lifts the refusal after the cool-down, with a fresh window', () => {
    // Arrange
    const tripped = replay(latticeSweep(37, -119, 6, 6), texasFleet, starter).window;
    const until = tripped.blockedUntilMs ?? 0;
    const nevada = [{ latitude: 38.5, longitude: -117.5 }];

    // Act
    const during = recordQuery(tripped, nevada.map(cellOf), until - 1, starter);
    const after = recordQuery(tripped, nevada.map(cellOf), until, starter);

    // Assess
    expect(during).toMatchObject({ kind: 'blocked', blockedUntilMs: until, distinctCells: 30 });
    expect(after.kind).toBe('clear');
    if (after.kind !== 'clear') return;
    expect(after.window.blockedUntilMs).toBeNull();
    expect(after.window.visits).toEqual([{ cell: cellOf(nevada[0] as GeoPoint), atMs: until }]);
  });

  it('forgets cells older than the window', () => {
    // Arrange: 29 cells (one short of tripping), then a 30th after the window has passed.
    const sweep = latticeSweep(37, -119, 6, 6).slice(0, 30);
    const lastOfFirst = sweep[28]?.atMs ?? 0;
    const late = sweep.map((query, i) =>
      i === 29 ? { ...query, atMs: lastOfFirst + starter.windowMinutes * 60_000 + 1 } : query,
    );

    // Act
    const { outcomes, window } = replay(late, texasFleet, starter);

    // Assess
    expect(outcomes).not.toContain('trip');
    expect(window.visits).toHaveLength(1);
  });

  it('keeps the window item bounded', () => {
    // Arrange: more queries than the item keeps, all within the window.
    const random = seededRandom(11);
    const queries = Array.from({ length: MAX_WINDOW_ENTRIES + 50 }, (_, i) => ({
      points: [{ latitude: 32 + random(), longitude: -97 + random() }],
      atMs: START + i * 1_000,
    }));

    // Act / Assess
    expect(replay(queries, texasFleet, starter).window.visits).toHaveLength(MAX_WINDOW_ENTRIES);
  });
});

describe('latticeVariation', () => {
  it('is zero for a regular grid and large for scattered points', () => {
    const grid = latticeSweep(37, -119, 5, 5).flatMap((query) => query.points.map(cellOf));
    const random = seededRandom(3);
    const scattered = Array.from({ length: 25 }, () =>
      cellOf({ latitude: 30 + random() * 17, longitude: -120 + random() * 40 }),
    );

    expect(latticeVariation(grid)).toBe(0);
    expect(latticeVariation(scattered)).toBeGreaterThan(0.3);
  });
});

describe('enumeration thresholds per plan', () => {
  it('are stricter on smaller plans and default what a plan leaves unset', () => {
    const settings = (name: string) =>
      enumerationGuardOf(PLAN_CATALOG.find((plan) => plan.name === name)?.enumerationGuard);

    expect(settings('starter').latticeMinCells).toBeLessThan(settings('growth').latticeMinCells);
    expect(settings('growth').maxDistinctCells).toBeLessThan(settings('enterprise').maxDistinctCells);
    expect(enumerationGuardOf(undefined).coolDownMinutes).toBe(60);
    expect(enumerationGuardOf({ coolDownMinutes: 5 }).windowMinutes).toBe(15);
  });
});
