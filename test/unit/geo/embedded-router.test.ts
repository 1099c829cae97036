import { describe, expect, it } from 'vitest';
import {
  computeEmbeddedRoute,
  createEmbeddedRouter,
  INTERSTATE_SPEED_MPH,
  LOCAL_CIRCUITY_FACTOR,
  LOCAL_SPEED_MPH,
} from '#shared/geo/embedded-router.ts';
import { createHighwayGraph, loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { decodeRoutePolyline, MAX_POINT_SPACING_MILES } from '#shared/geo/polyline.ts';
import { RouteTimeoutError, RoutingUnreachableError } from '#shared/geo/routing-errors.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { apiErrorForDomainError } from '#shared/platform/domain-errors.ts';
import { place } from './support.ts';

const router = createEmbeddedRouter();

describe('embedded router: known city pairs', () => {
  // Published road distances along the interstates, city centre to city centre.
  it.each([
    ['chicago-il', 'denver-co', 1003],
    ['los-angeles-ca', 'new-york-ny', 2790],
    ['dallas-tx', 'atlanta-ga', 781],
    ['seattle-wa', 'portland-or', 174],
    ['miami-fl', 'jacksonville-fl', 345],
    ['chicago-il', 'new-york-ny', 790],
    ['seattle-wa', 'los-angeles-ca', 1135],
    ['houston-tx', 'new-orleans-la', 348],
    ['new-york-ny', 'washington-dc', 226],
    ['salt-lake-city-ut', 'las-vegas-nv', 421],
  ])('%s → %s is within ±10%% of %i road miles', async (from, to, roadMiles) => {
    // Act
    const route = await router.route({ origin: place(from), destination: place(to) });

    // Assess
    expect(route.distanceMiles).toBeGreaterThan(roadMiles * 0.9);
    expect(route.distanceMiles).toBeLessThan(roadMiles * 1.1);
  });
});

describe('embedded router: the route it returns', () => {
  it('reads as merged interstate legs with place names, miles and times that add up', async () => {
    // Act
    const route = await router.route({ origin: place('chicago-il'), destination: place('denver-co') });

    // Assess
    expect(route.legs.map((leg) => leg.road)).toEqual(['I-55', 'I-80', 'I-76']);
    expect(route.legs[1]).toMatchObject({ kind: 'interstate', from: 'Joliet, IL', to: 'Big Springs, NE' });
    expect(route.legs.reduce((sum, leg) => sum + leg.miles, 0)).toBeCloseTo(route.distanceMiles, 0);
    expect(route.durationMinutes).toBeCloseTo((route.distanceMiles / INTERSTATE_SPEED_MPH) * 60, 0);
    for (const [i, leg] of route.legs.entries()) {
      const before = route.legs.slice(0, i).reduce((sum, previous) => sum + previous.miles, 0);
      expect(leg.startMiles).toBeCloseTo(before, 0);
    }
    expect(route.engine).toEqual({ name: 'embedded', dataVersion: expect.any(String) });
  });

  it('densifies geometry to a point at least every 5 miles, with road miles per point ending at the distance', async () => {
    // Act
    const route = await router.route({ origin: place('los-angeles-ca'), destination: place('new-york-ny') });

    // Assess
    expect(route.points).toHaveLength(route.cumulativeMiles.length);
    for (let i = 1; i < route.points.length; i++) {
      const a = route.points[i - 1];
      const b = route.points[i];
      if (!a || !b) throw new Error('missing point');
      expect(haversineMiles(a, b)).toBeLessThanOrEqual(MAX_POINT_SPACING_MILES);
      expect(route.cumulativeMiles[i]).toBeGreaterThanOrEqual(route.cumulativeMiles[i - 1] ?? 0);
    }
    expect(route.cumulativeMiles[0]).toBe(0);
    expect(route.cumulativeMiles.at(-1)).toBeCloseTo(route.distanceMiles, 1);
  });

  it('encodes exactly its points as the precision-5 polyline', async () => {
    // Act
    const route = await router.route({ origin: place('boston-ma'), destination: place('miami-fl') });

    // Assess
    expect(decodeRoutePolyline(route.polyline)).toEqual(route.points);
  });

  it('joins an off-network origin to the network with a local leg of straight line × circuity', async () => {
    // Prepare: the Nebraska Sandhills, ~60 miles from the nearest interstate node.
    const origin = { latitude: 42.0, longitude: -101.0 };

    // Act
    const route = await router.route({ origin, destination: place('denver-co') });

    // Assess
    const [local, interstate] = route.legs;
    expect(local).toMatchObject({
      kind: 'local',
      road: 'local',
      from: 'origin',
      startMiles: 0,
      milesEstimated: true,
    });
    expect(interstate?.kind).toBe('interstate');
    expect(local?.to).toBe(interstate?.from);
    const joinedAt = loadHighwayGraph().nodes.find((node) => `${node.name}, ${node.state}` === local?.to);
    if (!local || !joinedAt) throw new Error('no local leg to a known node');
    expect(local.miles).toBeCloseTo(haversineMiles(origin, joinedAt) * LOCAL_CIRCUITY_FACTOR, 1);
    expect(local.durationMinutes).toBeCloseTo((local.miles / LOCAL_SPEED_MPH) * 60, 0);
    expect(route.points[0]).toEqual(origin);
  });

  it('goes straight by local road when both ends are near each other and off the network', async () => {
    // Prepare
    const origin = { latitude: 42.0, longitude: -101.0 };
    const destination = { latitude: 42.1, longitude: -101.1 };

    // Act
    const route = await router.route({ origin, destination });

    // Assess
    expect(route.legs).toHaveLength(1);
    expect(route.legs[0]).toMatchObject({ kind: 'local', from: 'origin', to: 'destination' });
    expect(route.distanceMiles).toBeCloseTo(haversineMiles(origin, destination) * LOCAL_CIRCUITY_FACTOR, 1);
  });

  it('answers a zero-length route, still a two-point line, when origin and destination coincide', async () => {
    // Act
    const route = await router.route({ origin: place('omaha-ne'), destination: place('omaha-ne') });

    // Assess
    expect(route.distanceMiles).toBe(0);
    expect(route.points).toHaveLength(2);
    expect(route.legs).toEqual([]);
  });
});

describe('embedded router: failures', () => {
  it.each([
    ['the open Pacific as origin', { latitude: 30.0, longitude: -140.0 }, place('denver-co'), 'origin'],
    [
      'Honolulu as destination',
      place('denver-co'),
      { latitude: 21.3069, longitude: -157.8583 },
      'destination',
    ],
    [
      'Anchorage as destination',
      place('seattle-wa'),
      { latitude: 61.2181, longitude: -149.9003 },
      'destination',
    ],
  ] as const)('refuses %s as unreachable', async (_label, origin, destination, endpoint) => {
    // Act
    const error = await router.route({ origin, destination }).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect(error).toMatchObject({ endpoint });
    expect(apiErrorForDomainError(error)).toMatchObject({ code: 'routing_unreachable' });
  });

  it('refuses two ends on parts of a graph no interstate joins', async () => {
    // Prepare: two isolated junctions 700 miles apart.
    const graph = createHighwayGraph({
      version: 'test',
      nodes: [
        { id: 'a-tx', name: 'A', state: 'TX', latitude: 30, longitude: -100 },
        { id: 'b-ga', name: 'B', state: 'GA', latitude: 33, longitude: -88 },
      ],
      edges: [],
    });

    // Act
    const error = await createEmbeddedRouter({ graph })
      .route({ origin: { latitude: 30, longitude: -100 }, destination: { latitude: 33, longitude: -88 } })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect(error).toMatchObject({ endpoint: 'destination', message: expect.stringMatching(/No interstate/) });
  });

  it('throws RouteTimeoutError once the computation runs past its budget', async () => {
    // Prepare: a clock that advances 1 ms each time it is read.
    let clock = 0;
    const slowRouter = createEmbeddedRouter({ timeBudgetMs: 5, now: () => clock++ });

    // Act
    const error = await slowRouter
      .route({ origin: place('seattle-wa'), destination: place('miami-fl') })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RouteTimeoutError);
    expect(error).toMatchObject({ budgetMs: 5 });
    expect(apiErrorForDomainError(error)).toMatchObject({ code: 'route_computation_timeout' });
  });

  it('finishes a cross-country route well inside the default 2-second budget', () => {
    // Act: CPU time, not wall time: a busy machine stretches the wall clock, not the work done.
    const started = process.cpuUsage();
    computeEmbeddedRoute({ origin: place('seattle-wa'), destination: place('miami-fl') });
    const used = process.cpuUsage(started);

    // Assess
    expect((used.user + used.system) / 1000).toBeLessThan(500);
  });

  it('rejects coordinates that are not coordinates', async () => {
    await expect(
      router.route({ origin: { latitude: 95, longitude: 0 }, destination: place('denver-co') }),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      router.route({ origin: place('denver-co'), destination: { latitude: Number.NaN, longitude: 0 } }),
    ).rejects.toBeInstanceOf(RangeError);
  });
});
