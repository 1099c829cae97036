import { loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import type { GeoPoint } from '#shared/kernel/distance.ts';

/** The position of a node of the bundled graph, by id; throws on an unknown id. */
export function place(id: string): GeoPoint {
  const node = loadHighwayGraph().nodeById(id);
  if (!node) throw new Error(`no node ${id}`);
  return { latitude: node.latitude, longitude: node.longitude };
}
