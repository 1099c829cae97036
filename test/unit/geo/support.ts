import type { GeoPoint } from '../../../shared/geo/distance.ts';
import { loadHighwayGraph } from '../../../shared/geo/highway-graph.ts';

/** Deterministic PRNG (mulberry32): property-style loops that fail the same way every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The position of a node of the bundled graph, by id; throws on an unknown id. */
export function place(id: string): GeoPoint {
  const node = loadHighwayGraph().nodeById(id);
  if (!node) throw new Error(`no node ${id}`);
  return { latitude: node.latitude, longitude: node.longitude };
}
