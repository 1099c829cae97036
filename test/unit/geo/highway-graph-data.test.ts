import { describe, expect, it } from 'vitest';
import { createHighwayGraph, type HighwayGraphData, loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import graphData from '../../../data/highway-graph.json' with { type: 'json' };

const data: HighwayGraphData = graphData;
const LOWER_48 = { south: 24.4, north: 49.4, west: -124.8, east: -66.9 };
const LOWER_48_STATES = new Set(
  (
    'AL AZ AR CA CO CT DE DC FL GA ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK ' +
    'OR PA RI SC SD TN TX UT VT VA WA WV WI WY'
  ).split(' '),
);
const INTERSTATE = /^I-[1-9]\d{0,2}$/;
const byId = new Map(data.nodes.map((node) => [node.id, node]));

const hasAtMostFourDecimals = (value: number) => Math.abs(value * 1e4 - Math.round(value * 1e4)) < 1e-6;
const insideLower48 = (latitude: number, longitude: number) =>
  latitude >= LOWER_48.south &&
  latitude <= LOWER_48.north &&
  longitude >= LOWER_48.west &&
  longitude <= LOWER_48.east;

function edgeGeometry(edge: HighwayGraphData['edges'][number]) {
  const from = byId.get(edge.from);
  const to = byId.get(edge.to);
  if (!from || !to) throw new Error(`edge ${edge.from} → ${edge.to} names an unknown node`);
  const shape = (edge.shape ?? []).map(([latitude = Number.NaN, longitude = Number.NaN]) => ({
    latitude,
    longitude,
  }));
  return { from, to, points: [from, ...shape, to] };
}

describe('data/highway-graph.json', () => {
  it('is versioned and says where its facts come from', () => {
    expect(data.version).toMatch(/^\d{4}\.\d+\.\d+$/);
    expect(graphData.sources.length).toBeGreaterThan(0);
    expect(graphData.estimation.factors).toBeDefined();
  });

  it('has at least 150 nodes with unique ids, a lower-48 state, and 4-decimal coordinates inside the lower 48', () => {
    expect(data.nodes.length).toBeGreaterThanOrEqual(150);
    expect(byId.size).toBe(data.nodes.length);
    for (const node of data.nodes) {
      expect(node.id, node.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*-[a-z]{2}$/);
      expect(node.id.endsWith(`-${node.state.toLowerCase()}`), node.id).toBe(true);
      expect(LOWER_48_STATES.has(node.state), node.id).toBe(true);
      expect(insideLower48(node.latitude, node.longitude), node.id).toBe(true);
      expect(hasAtMostFourDecimals(node.latitude) && hasAtMostFourDecimals(node.longitude), node.id).toBe(
        true,
      );
    }
  });

  it('names every segment with a well-formed interstate (I-<number>), concurrent routes included', () => {
    for (const edge of data.edges) {
      expect(edge.interstate, `${edge.from} → ${edge.to}`).toMatch(INTERSTATE);
      for (const road of edge.concurrent ?? []) expect(road).toMatch(INTERSTATE);
    }
  });

  it('has no self-loop and no duplicate segment between the same two nodes', () => {
    const pairs = new Set<string>();
    for (const edge of data.edges) {
      expect(edge.from).not.toBe(edge.to);
      const key = [edge.from, edge.to].sort().join('|');
      expect(pairs.has(key), key).toBe(false);
      pairs.add(key);
    }
  });

  it('gives every segment road miles between 1.0 and 1.6 × the straight line, never shorter than its drawing', () => {
    for (const edge of data.edges) {
      // Prepare
      const { from, to, points } = edgeGeometry(edge);
      const drawn = points
        .slice(1)
        .reduce((sum, point, i) => sum + haversineMiles(points[i] ?? point, point), 0);
      const label = `${edge.from} → ${edge.to} (${edge.miles} mi)`;

      // Assess: the A* heuristic is admissible only if road miles ≥ great-circle miles.
      expect(edge.miles, label).toBeGreaterThanOrEqual(haversineMiles(from, to));
      expect(edge.miles, label).toBeLessThanOrEqual(1.6 * haversineMiles(from, to));
      expect(edge.miles, label).toBeGreaterThanOrEqual(drawn);
      for (const point of points) expect(insideLower48(point.latitude, point.longitude), label).toBe(true);
    }
  });

  it('derives every estimated mileage from its drawing and its documented factor', () => {
    const factors = Object.values(graphData.estimation.factors);
    for (const edge of data.edges.filter((candidate) => candidate.miles_estimated)) {
      // Prepare
      const { points } = edgeGeometry(edge);
      const drawn = points
        .slice(1)
        .reduce((sum, point, i) => sum + haversineMiles(points[i] ?? point, point), 0);

      // Assess
      expect(factors).toContain(edge.estimation_factor);
      expect(edge.miles).toBe(Math.round(drawn * (edge.estimation_factor ?? Number.NaN)));
    }
  });

  it('is connected: every node reaches every other', () => {
    // Prepare
    const graph = createHighwayGraph(data);
    const seen = new Set<number>([0]);
    const queue = [0];

    // Act
    for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
      for (const step of graph.adjacency[node] ?? []) {
        if (!seen.has(step.to)) {
          seen.add(step.to);
          queue.push(step.to);
        }
      }
    }

    // Assess
    expect(seen.size).toBe(graph.nodes.length);
  });
});

describe('loadHighwayGraph', () => {
  it('indexes the bundled file once: ids, both directions of every edge, nearest nodes first', () => {
    // Act
    const graph = loadHighwayGraph();
    const nearDenver = graph.nearestNodes({ latitude: 39.75, longitude: -105.0 }, 3);

    // Assess
    expect(loadHighwayGraph()).toBe(graph);
    expect(graph.adjacency.reduce((sum, steps) => sum + steps.length, 0)).toBe(2 * graph.edges.length);
    expect(nearDenver.map(({ node }) => node.id)[0]).toBe('denver-co');
    expect(nearDenver.map(({ miles }) => miles)).toEqual(
      [...nearDenver.map(({ miles }) => miles)].sort((a, b) => a - b),
    );
  });

  it('refuses data whose edge names an unknown node', () => {
    // Prepare
    const broken: HighwayGraphData = {
      version: 'test',
      nodes: [{ id: 'a-tx', name: 'A', state: 'TX', latitude: 30, longitude: -97 }],
      edges: [{ from: 'a-tx', to: 'b-tx', interstate: 'I-35', miles: 10, miles_estimated: false }],
    };

    // Act / Assess
    expect(() => createHighwayGraph(broken)).toThrow(/unknown node/);
  });
});
