import { describe, expect, it } from 'vitest';
import { loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import type { GeoPoint } from '#shared/kernel/distance.ts';
import { PLAN_CATALOG } from '#shared/plans/domain/plan-catalog.ts';
import {
  cellOf,
  corridorFootprint,
  EMPTY_WINDOW,
  type EnumerationGuardSettings,
  type EnumerationWindow,
  enumerationGuardOf,
  type Finding,
  footprintEntries,
  judgeSuspicion,
  latticeVariation,
  MAX_AREAS_PER_QUERY,
  MAX_CORRIDOR_AREAS,
  nearbyFootprint,
  type QueryFootprint,
  recordQuery,
  VETTED_FOR_MS,
} from '#shared/stations/domain/enumeration-guard.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

const START = Date.parse('2026-11-23T14:00:00Z');
const starter = enumerationGuardOf(PLAN_CATALOG.find((plan) => plan.name === 'starter')?.enumerationGuard);

type Outcome = 'allow' | 'trip' | 'blocked';

interface Query {
  footprint: QueryFootprint;
  atMs: number;
}

/** A radius query as GET /v1/stations records it (5 miles unless told). */
const at = (point: GeoPoint, atMs: number, radiusMiles = 5): Query => ({
  footprint: nearbyFootprint(point, radiusMiles),
  atMs,
});

const entriesIn = (window: EnumerationWindow) => new Set([...window.buckets.values()].flat()).size;

/**
 * Runs queries through the guard as the use case does, one window carried from query to query;
 * counts how often the fleet's positions were consulted, and the largest window stored.
 */
function replay(
  queries: readonly Query[],
  vehicles: readonly GeoPoint[],
  settings: EnumerationGuardSettings,
  initial: EnumerationWindow = EMPTY_WINDOW,
) {
  let window = initial;
  let fleetReads = 0;
  let largestWindow = 0;
  const outcomes: Outcome[] = [];
  const findings: (Finding | null)[] = [];
  for (const query of queries) {
    const step = recordQuery(window, query.footprint, query.atMs, settings);
    findings.push(step.kind === 'blocked' || step.kind === 'suspicious' ? step.finding : null);
    if (step.kind === 'blocked') {
      outcomes.push('blocked');
      continue;
    }
    if (step.kind === 'vetted') {
      outcomes.push('allow');
      continue;
    }
    largestWindow = Math.max(largestWindow, entriesIn(step.window));
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
  return { outcomes, findings, window, fleetReads, largestWindow };
}

/** A regular sweep: one query every `stepDegrees` over a rectangle, `everyMs` apart. */
function latticeSweep(south: number, west: number, rows: number, columns: number, stepDegrees = 0.5) {
  const queries: Query[] = [];
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      queries.push(
        at(
          { latitude: south + row * stepDegrees, longitude: west + column * stepDegrees },
          START + queries.length * 5_000,
        ),
      );
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
    const { outcomes, findings, window } = replay(sweep, texasFleet, starter);

    // Assess: allowed until the 30th distinct cell (starter's latticeMinCells), then refused.
    const firstTrip = outcomes.indexOf('trip');
    expect(firstTrip).toBe(starter.latticeMinCells - 1);
    expect(findings[firstTrip]).toEqual({ rule: 'lattice', limit: 30, used: 30 });
    expect(outcomes.slice(0, firstTrip).every((outcome) => outcome === 'allow')).toBe(true);
    expect(outcomes.slice(firstTrip + 1).every((outcome) => outcome === 'blocked')).toBe(true);
    const trippedAt = sweep[firstTrip]?.atMs ?? 0;
    expect(window.blockedUntilMs).toBe(trippedAt + starter.coolDownMinutes * 60_000);
  });

  it('does not trip on the same lattice swept around the fleet’s own vehicles', () => {
    // Arrange: vehicles spread over the swept rectangle.
    const fleet = [0, 1, 2].flatMap((row) =>
      [0, 1, 2].map((column) => ({ latitude: 37 + row, longitude: -119 + column })),
    );

    // Act / Assess
    expect(replay(latticeSweep(37, -119, 6, 6), fleet, starter).outcomes).not.toContain('trip');
  });

  it('trips on too many distinct cells far from the fleet even off a lattice', () => {
    // Arrange: random points over the western states, faster than any dispatcher, tiny radius.
    const random = seededRandom(7);
    const queries = Array.from({ length: starter.maxDistinctCells + 20 }, (_, i) =>
      at({ latitude: 35 + random() * 10, longitude: -122 + random() * 12 }, START + i * 2_000, 1),
    );

    // Act
    const { outcomes } = replay(queries, texasFleet, starter);

    // Assess
    expect(outcomes).toContain('trip');
  });

  it('counts the areas a wide radius covers: a few wide queries far away trip it', () => {
    // Arrange: 50-mile queries scattered over the western states (no lattice), one every 20 s:
    // each covers ~20 areas; by their centres alone they stay far below every cell threshold.
    const random = seededRandom(21);
    const queries = Array.from({ length: 40 }, (_, i) =>
      at({ latitude: 35 + random() * 10, longitude: -122 + random() * 12 }, START + i * 20_000, 50),
    );

    // Act
    const { outcomes, findings } = replay(queries, texasFleet, starter);

    // Assess: tripped by the area rule, long before the centres could reach 30 cells.
    const firstTrip = outcomes.indexOf('trip');
    expect(firstTrip).toBeGreaterThan(0);
    expect(firstTrip).toBeLessThan(starter.latticeMinCells);
    expect(findings[firstTrip]).toMatchObject({ rule: 'areas', limit: starter.maxAreaCells });
  });

  it('counts the areas a corridor covers: along-route queries between the same two ends trip it', () => {
    // Arrange: routes from Reno to Salt Lake City, each drawn through another waypoint over the
    // western states: only two end cells ever, but the corridors sweep the West.
    const reno = { latitude: 39.53, longitude: -119.81 };
    const saltLake = { latitude: 40.76, longitude: -111.89 };
    const queries = Array.from({ length: 60 }, (_, i) => ({
      footprint: corridorFootprint([
        reno,
        { latitude: 32 + (i % 10) * 1.5, longitude: -124 + Math.floor(i / 10) * 3.3 },
        saltLake,
      ]),
      atMs: START + i * 10_000,
    }));

    // Act
    const { outcomes, findings } = replay(queries, texasFleet, starter);

    // Assess
    expect(queries[0]?.footprint.anchors).toHaveLength(2);
    const firstTrip = outcomes.indexOf('trip');
    expect(firstTrip).toBeGreaterThan(0);
    expect(findings[firstTrip]).toMatchObject({ rule: 'areas' });
  });

  it('never trips for a 500-truck fleet querying around its own trucks on the interstates', () => {
    // Arrange: every truck asks for stations within 30 miles of where it is (the default 25-mile
    // radius), twice an hour, for three hours, on the starter plan (the strictest); the trucks
    // move on between rounds.
    const random = seededRandom(500);
    const queries: Query[] = [];
    let trucks = trucksOnInterstates(500, random);
    for (let round = 0; round < 6; round += 1) {
      trucks = trucks.map((truck) => near(truck, 15, random));
      for (const [i, truck] of trucks.entries()) {
        queries.push(at(near(truck, 30, random), START + round * 1_800_000 + i * 3_600, 25));
      }
    }

    // Act: the latest positions are the last round's.
    const { outcomes, fleetReads, largestWindow } = replay(queries, trucks, starter);

    // Assess: no refusal, and the positions were read only now and then (vetted windows).
    expect(outcomes.filter((outcome) => outcome !== 'allow')).toEqual([]);
    expect(fleetReads).toBeGreaterThan(0);
    expect(fleetReads).toBeLessThanOrEqual((6 * 30 * 60_000) / VETTED_FOR_MS + 6);
    // The window never holds much more than the rule needs to decide: vetting empties it.
    expect(largestWindow).toBeLessThanOrEqual(
      starter.maxDistinctCells + starter.maxAreaCells + MAX_AREAS_PER_QUERY + 1,
    );
  });

  it.each([1, 2, 3, 4, 5])(
    'never trips for a dispatcher querying random places, even with no vehicle nearby (seed %i)',
    (seed) => {
      // Arrange: 60 queries an hour anywhere in the lower 48 at the default radius (a dispatcher
      // planning loads), and an along-route query across the country every 3 minutes.
      const random = seededRandom(seed);
      const anywhere = () => ({ latitude: 30 + random() * 17, longitude: -120 + random() * 40 });
      const queries = Array.from({ length: 60 }, (_, i) =>
        i % 3 === 2
          ? { footprint: corridorFootprint([anywhere(), anywhere()]), atMs: START + i * 60_000 }
          : at(anywhere(), START + i * 60_000, 25),
      );

      // Act / Assess
      expect(replay(queries, [], starter).outcomes).not.toContain('trip');
    },
  );

  it('lifts the refusal after the cool-down, with a fresh window; until then it repeats the trip’s figures', () => {
    // Arrange
    const tripped = replay(latticeSweep(37, -119, 6, 6), texasFleet, starter).window;
    const until = tripped.blockedUntilMs ?? 0;
    const nevada = nearbyFootprint({ latitude: 38.5, longitude: -117.5 }, 5);

    // Act
    const during = recordQuery(tripped, nevada, until - 1, starter);
    const after = recordQuery(tripped, nevada, until, starter);

    // Assess
    expect(during).toMatchObject({
      kind: 'blocked',
      blockedUntilMs: until,
      finding: { rule: 'lattice', limit: 30, used: 30 },
    });
    expect(after.kind).toBe('clear');
    if (after.kind !== 'clear') return;
    expect(new Set([...after.window.buckets.values()].flat())).toEqual(new Set(footprintEntries(nevada)));
  });

  it('reports `used` from the window it judged: cells that left the window never count', () => {
    // Arrange: 20 far cells, then (after the window has passed) the 30-cell lattice sweep.
    const random = seededRandom(5);
    const early = Array.from({ length: 20 }, (_, i) =>
      at({ latitude: 42 + random() * 3, longitude: -110 + random() * 3 }, START - 40 * 60_000 + i * 1_000, 1),
    );

    // Act
    const { outcomes, findings } = replay([...early, ...latticeSweep(37, -119, 6, 6)], texasFleet, starter);

    // Assess: the trip and every refusal after it say 30, not 50.
    const firstTrip = outcomes.indexOf('trip');
    expect(findings[firstTrip]).toEqual({ rule: 'lattice', limit: 30, used: 30 });
    expect(findings.slice(firstTrip)).toEqual(Array(findings.length - firstTrip).fill(findings[firstTrip]));
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
    expect([...window.buckets.keys()]).toHaveLength(1);
    expect(entriesIn(window)).toBe(
      footprintEntries(late[29]?.footprint ?? { anchors: [], areas: [] }).length,
    );
  });
});

describe('what one query records', () => {
  const dallas = { latitude: 32.78, longitude: -96.8 };

  it('a radius query: its centre’s cell and the areas its radius reaches, more for a wider radius', () => {
    const narrow = nearbyFootprint(dallas, 2);
    const wide = nearbyFootprint(dallas, 50);

    expect(narrow.anchors).toEqual([cellOf(dallas)]);
    expect(narrow.areas.length).toBeGreaterThanOrEqual(1);
    expect(narrow.areas.length).toBeLessThanOrEqual(4);
    expect(wide.areas.length).toBeGreaterThanOrEqual(12);
    expect(wide.areas.length).toBeLessThanOrEqual(MAX_AREAS_PER_QUERY);
  });

  it('a corridor: its two ends’ cells and the areas along it, bounded for a cross-country route', () => {
    const short = corridorFootprint([dallas, { latitude: 32.78, longitude: -95.8 }]);
    const crossCountry = corridorFootprint([
      { latitude: 34.05, longitude: -118.24 },
      { latitude: 40.71, longitude: -74.0 },
    ]);

    expect(short.anchors).toHaveLength(2);
    expect(short.areas.length).toBeGreaterThanOrEqual(2);
    expect(short.areas.length).toBeLessThanOrEqual(4);
    expect(crossCountry.areas).toHaveLength(MAX_CORRIDOR_AREAS);
  });
});

describe('latticeVariation', () => {
  it('is zero for a regular grid and large for scattered points', () => {
    const grid = latticeSweep(37, -119, 5, 5).flatMap((query) => query.footprint.anchors);
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
    expect(settings('starter').maxAreaCells).toBe(180);
    expect(settings('enterprise').maxAreaCells).toBe(450);
    expect(enumerationGuardOf({ maxAreaCells: 50 }).maxAreaCells).toBe(50);
    expect(enumerationGuardOf(undefined).coolDownMinutes).toBe(60);
    expect(enumerationGuardOf({ coolDownMinutes: 5 }).windowMinutes).toBe(15);
  });
});
