import { describe, expect, it } from 'vitest';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { findCheapestPath } from '#shared/geo/graph-search.ts';
import { createHighwayGraph, type HighwayGraph, loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

/** Textbook O(V²) Dijkstra on road miles: independent of the heap and heuristic under test. */
function dijkstraMiles(graph: HighwayGraph, source: number): Float64Array {
  const distance = new Float64Array(graph.nodes.length).fill(Number.POSITIVE_INFINITY);
  const done = new Uint8Array(graph.nodes.length);
  distance[source] = 0;
  for (;;) {
    let next = -1;
    for (let i = 0; i < distance.length; i++) {
      if (!done[i] && (next < 0 || (distance[i] ?? 0) < (distance[next] ?? 0))) next = i;
    }
    if (next < 0 || distance[next] === Number.POSITIVE_INFINITY) return distance;
    done[next] = 1;
    for (const step of graph.adjacency[next] ?? []) {
      const through = (distance[next] ?? 0) + step.edge.miles;
      if (through < (distance[step.to] ?? 0)) distance[step.to] = through;
    }
  }
}

function aStarMiles(graph: HighwayGraph, from: number, to: number) {
  const target = graph.nodes[to];
  if (!target) throw new Error('bad node');
  return findCheapestPath(graph, {
    sources: [{ node: from, cost: 0 }],
    targets: [{ node: to, cost: 0 }],
    edgeCost: (step) => step.edge.miles,
    heuristic: (node) => haversineMiles(graph.nodes[node] ?? target, target),
  });
}

describe('findCheapestPath (A*)', () => {
  const graph = loadHighwayGraph();

  it('finds the same distance as Dijkstra on 400 random node pairs, along a connected chain of edges', () => {
    // Prepare
    const random = seededRandom(20250101);
    const size = graph.nodes.length;

    for (let trial = 0; trial < 400; trial++) {
      const from = Math.floor(random() * size);
      const to = Math.floor(random() * size);

      // Act
      const expected = dijkstraMiles(graph, from)[to] ?? Number.NaN;
      const found = aStarMiles(graph, from, to);

      // Assess
      expect(found?.cost ?? Number.NaN).toBeCloseTo(expected, 6);
      let at = from;
      for (const step of found?.steps ?? []) {
        expect(step.reversed ? step.edge.to : step.edge.from).toBe(at);
        at = step.to;
      }
      expect(at).toBe(to);
      expect(found?.steps.reduce((sum, step) => sum + step.edge.miles, 0)).toBeCloseTo(expected, 6);
    }
  });

  it('never lets the router take longer than the pure-interstate shortest path between two nodes', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 100; trial++) {
      // Prepare
      const from = graph.nodes[Math.floor(random() * graph.nodes.length)];
      const to = graph.nodes[Math.floor(random() * graph.nodes.length)];
      if (!from || !to) throw new Error('bad node');
      const interstateMiles = dijkstraMiles(graph, from.index)[to.index] ?? Number.NaN;

      // Act
      const route = computeEmbeddedRoute({ origin: from, destination: to });

      // Assess: at 60 mph one mile is one minute; local shortcuts may only make it faster.
      expect(route.durationMinutes).toBeLessThanOrEqual(interstateMiles + 0.1);
    }
  });

  it('picks the cheapest combination of source and target terminals', () => {
    // Prepare: a line a — b — c — d, 10 miles apart, joinable at a or b and leavable at c or d.
    const nodes = ['a', 'b', 'c', 'd'].map((name, i) => ({
      id: `${name}-tx`,
      name,
      state: 'TX',
      latitude: 30,
      longitude: -100 + i * 0.1,
    }));
    const edges = [0, 1, 2].map((i) => ({
      from: nodes[i]?.id ?? '',
      to: nodes[i + 1]?.id ?? '',
      interstate: 'I-10',
      miles: 10,
      miles_estimated: false,
    }));
    const small = createHighwayGraph({ version: 'test', nodes, edges });

    // Act
    const found = findCheapestPath(small, {
      sources: [
        { node: 0, cost: 1 },
        { node: 1, cost: 25 },
      ],
      targets: [
        { node: 2, cost: 30 },
        { node: 3, cost: 2 },
      ],
      edgeCost: (step) => step.edge.miles,
      heuristic: () => 0,
    });

    // Assess: a (1) + 30 miles + d (2) = 33 beats every other pair.
    expect(found?.cost).toBe(33);
    expect(found?.source.node).toBe(0);
    expect(found?.target.node).toBe(3);
    expect(found?.steps).toHaveLength(3);
  });

  it('answers undefined when no target is reachable', () => {
    // Prepare
    const nodes = [
      { id: 'a-tx', name: 'a', state: 'TX', latitude: 30, longitude: -100 },
      { id: 'b-tx', name: 'b', state: 'TX', latitude: 31, longitude: -100 },
    ];
    const small = createHighwayGraph({ version: 'test', nodes, edges: [] });

    // Act / Assess
    expect(
      findCheapestPath(small, {
        sources: [{ node: 0, cost: 0 }],
        targets: [{ node: 1, cost: 0 }],
        edgeCost: () => 1,
        heuristic: () => 0,
      }),
    ).toBeUndefined();
  });
});
