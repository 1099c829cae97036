import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { readGeoDataFile } from './data-files.ts';

/** One junction city or interchange, as stored in data/highway-graph.json. */
export interface HighwayNodeRecord {
  id: string;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
}

/** One interstate segment between two nodes, as stored in data/highway-graph.json. */
export interface HighwayEdgeRecord {
  from: string;
  to: string;
  /** Primary signed route, e.g. `I-80`. */
  interstate: string;
  /** Routes signed on the same pavement, e.g. `['I-90']` on the Indiana Toll Road. */
  concurrent?: string[];
  miles: number;
  /** True when `miles` is great-circle shape length × `estimation_factor`, not a published figure. */
  miles_estimated: boolean;
  terrain?: string;
  estimation_factor?: number;
  /** Intermediate `[latitude, longitude]` points the interstate passes, from `from` to `to`. */
  shape?: number[][];
}

/** The versioned data file. */
export interface HighwayGraphData {
  version: string;
  nodes: HighwayNodeRecord[];
  edges: HighwayEdgeRecord[];
}

/** A node with its dense index, the key the search arrays use. */
export interface HighwayNode extends GeoPoint {
  index: number;
  id: string;
  name: string;
  state: string;
}

/** An edge with its geometry resolved to points, endpoints included, in `from` → `to` order. */
export interface HighwayEdge {
  index: number;
  from: number;
  to: number;
  interstate: string;
  concurrent: readonly string[];
  miles: number;
  milesEstimated: boolean;
  geometry: readonly GeoPoint[];
}

/** An edge seen from one end: where it leads and whether its geometry runs backwards. */
export interface Adjacency {
  edge: HighwayEdge;
  to: number;
  reversed: boolean;
}

/** A node near a point, with the great-circle miles between them. */
export interface NearbyNode {
  node: HighwayNode;
  miles: number;
}

/** The graph, indexed for search. Built once per container; immutable afterwards. */
export interface HighwayGraph {
  version: string;
  nodes: readonly HighwayNode[];
  edges: readonly HighwayEdge[];
  adjacency: readonly (readonly Adjacency[])[];
  nodeById(id: string): HighwayNode | undefined;
  /** The `count` nodes nearest to `point`, nearest first. */
  nearestNodes(point: GeoPoint, count: number): NearbyNode[];
}

/**
 * Indexes graph data: dense node indexes, adjacency lists in both directions, resolved geometry.
 * Throws on an edge naming an unknown node, so a bad data file fails at start, not mid-route.
 */
export function createHighwayGraph(data: HighwayGraphData): HighwayGraph {
  const nodes: HighwayNode[] = data.nodes.map((record, index) => ({
    index,
    id: record.id,
    name: record.name,
    state: record.state,
    latitude: record.latitude,
    longitude: record.longitude,
  }));
  const indexById = new Map(nodes.map((node) => [node.id, node]));
  const adjacency: Adjacency[][] = nodes.map(() => []);
  const edges = data.edges.map((record, index): HighwayEdge => {
    const from = indexById.get(record.from);
    const to = indexById.get(record.to);
    if (!from || !to)
      throw new Error(`highway graph edge ${record.from} → ${record.to} names an unknown node`);
    const shape = (record.shape ?? []).map(([latitude = 0, longitude = 0]) => ({ latitude, longitude }));
    const edge: HighwayEdge = {
      index,
      from: from.index,
      to: to.index,
      interstate: record.interstate,
      concurrent: record.concurrent ?? [],
      miles: record.miles,
      milesEstimated: record.miles_estimated,
      geometry: [from, ...shape, to].map(({ latitude, longitude }) => ({ latitude, longitude })),
    };
    adjacency[from.index]?.push({ edge, to: to.index, reversed: false });
    adjacency[to.index]?.push({ edge, to: from.index, reversed: true });
    return edge;
  });

  return {
    version: data.version,
    nodes,
    edges,
    adjacency,
    nodeById: (id) => indexById.get(id),
    // A linear scan keeping the best `count`: ~300 nodes cost a few microseconds, less than
    // building and querying a spatial tree would save.
    nearestNodes(point, count) {
      const nearest: NearbyNode[] = [];
      for (const node of nodes) {
        const miles = haversineMiles(point, node);
        if (nearest.length === count && miles >= (nearest[count - 1]?.miles ?? 0)) continue;
        let at = nearest.length;
        while (at > 0 && (nearest[at - 1]?.miles ?? 0) > miles) at--;
        nearest.splice(at, 0, { node, miles });
        if (nearest.length > count) nearest.pop();
      }
      return nearest;
    },
  };
}

let bundledData: HighwayGraphData | undefined;
let bundledGraph: HighwayGraph | undefined;

/** The bundled graph's data (data/highway-graph.json) as stored, read on first use and cached. */
export function highwayGraphData(): HighwayGraphData {
  bundledData ??= readGeoDataFile('highwayGraph') as HighwayGraphData;
  return bundledData;
}

/** The bundled US Interstate backbone (data/highway-graph.json), indexed on first use and cached. */
export function loadHighwayGraph(): HighwayGraph {
  bundledGraph ??= createHighwayGraph(highwayGraphData());
  return bundledGraph;
}
