import { describe, expect, it } from 'vitest';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { JUNCTION_RADIUS_MILES, lineFromFoot, locateOnRoad } from '#shared/geo/road-snap.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { bearingDegrees, haversineMiles } from '#shared/kernel/distance.ts';
import { place } from './support.ts';

const graph = loadHighwayGraph();
/** I-40 west of Oklahoma City: 35 road miles out on the 260-mile segment to Amarillo. */
const route = computeEmbeddedRoute({ origin: place('oklahoma-city-ok'), destination: place('amarillo-tx') });
const truck = pointAtMiles(route, 35);
const west = bearingDegrees(truck, pointAtMiles(route, 36));

describe('locateOnRoad', () => {
  it('finds the segment a point lies on, its foot and the road miles either side', () => {
    // Act
    const on = locateOnRoad(graph, truck);

    // Assess
    if (!on) throw new Error('not on a road');
    expect(on.edge.interstate).toBe('I-40');
    expect(on.offsetMiles).toBeLessThan(0.01);
    expect(on.milesFromStart + on.milesToEnd).toBeCloseTo(on.edge.miles, 6);
    const okcEnd = graph.nodes[on.edge.from]?.id === 'oklahoma-city-ok' ? 'from' : 'to';
    expect(okcEnd === 'from' ? on.milesFromStart : on.milesToEnd).toBeCloseTo(35, 1);
    expect(on).toMatchObject({ towardsTo: true, towardsFrom: true });
  });

  it('lets a heading choose the one way along the segment, and a crossing heading none', () => {
    // Act
    const westbound = locateOnRoad(graph, truck, west);
    const eastbound = locateOnRoad(graph, truck, (west + 180) % 360);
    const crossing = locateOnRoad(graph, truck, (west + 90) % 360);

    // Assess: westbound leaves towards Amarillo, eastbound towards Oklahoma City.
    if (!westbound || !eastbound) throw new Error('not on a road');
    const amarillo = graph.nodeById('amarillo-tx')?.index;
    const ahead = (on: typeof westbound) => (on.towardsTo ? on.edge.to : on.edge.from);
    expect(westbound.towardsTo !== westbound.towardsFrom).toBe(true);
    expect(ahead(westbound)).toBe(amarillo);
    expect(ahead(eastbound)).toBe(graph.nodeById('oklahoma-city-ok')?.index);
    expect(crossing).toBeNull();
  });

  it('draws the rest of the segment from the foot to the junction ahead', () => {
    // Act
    const on = locateOnRoad(graph, truck, west);
    if (!on) throw new Error('not on a road');
    const line = lineFromFoot(on, on.towardsTo ? 'to' : 'from');

    // Assess
    expect(line[0]).toEqual(on.foot);
    const end = line.at(-1);
    if (!end) throw new Error('empty line');
    expect(haversineMiles(end, place('amarillo-tx'))).toBeLessThan(0.01);
  });

  it('leaves a point at a junction, or off every road, to the junctions', () => {
    // Prepare
    const nearOkc = { latitude: 35.4676 + JUNCTION_RADIUS_MILES / 2 / 69, longitude: -97.5164 };

    // Act / Assess
    expect(locateOnRoad(graph, nearOkc)).toBeNull();
    expect(locateOnRoad(graph, { latitude: 42.0, longitude: -101.0 })).toBeNull();
  });
});
