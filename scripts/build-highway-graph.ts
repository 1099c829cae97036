/**
 * Builds data/highway-graph.json, the US Interstate backbone the embedded router searches.
 *
 * The facts live in data/highway-graph/nodes.txt and edges.txt, in a terse text form so a reviewer
 * can check a row against a map or a mileage table without reading JSON; each file's header
 * documents its row format. Run `npx tsx scripts/build-highway-graph.ts` after editing a table; the
 * data file is committed, so nothing is fetched or built at run time.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { haversineMiles } from '#shared/kernel/distance.ts';

const OUTPUT = fileURLToPath(new URL('../data/highway-graph.json', import.meta.url));
const BIOME = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));

/** Bump when a node or an edge changes: routes and station catalogs record the version they used. */
const GRAPH_VERSION = '2025.1.0';

/**
 * Road miles over great-circle miles of the shape-point polyline, per terrain class. Calibrated on
 * the edges whose road miles are known (the script prints the known ratios per class): flat
 * interstates run within a few percent of their shape polyline, mountain ones wind more.
 */
const ESTIMATION_FACTORS = { f: 1.06, r: 1.09, m: 1.15 } as const;
const TERRAIN = { f: 'flat', r: 'rolling', m: 'mountain' } as const;

const NODES = readFileSync(new URL('../data/highway-graph/nodes.txt', import.meta.url), 'utf8');
const EDGES = readFileSync(new URL('../data/highway-graph/edges.txt', import.meta.url), 'utf8');

type TerrainKey = keyof typeof ESTIMATION_FACTORS;
type LatLon = readonly [number, number];

const round4 = (value: number): number => Math.round(value * 1e4) / 1e4;

function slug(name: string, state: string): string {
  const base = name
    .toLowerCase()
    .replace(/\./g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${base}-${state.toLowerCase()}`;
}

function rows(table: string): string[] {
  return table
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function parseNodes() {
  return rows(NODES).map((row) => {
    const [name = '', state = '', lat = '', lon = ''] = row.split('|');
    return {
      id: slug(name, state),
      name,
      state,
      latitude: round4(Number(lat)),
      longitude: round4(Number(lon)),
    };
  });
}

type GraphNodeRow = ReturnType<typeof parseNodes>[number];

function parseLatLon(token: string): LatLon {
  const [lat, lon] = token.split(',').map(Number);
  if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    throw new Error(`bad shape point ${token}`);
  }
  return [round4(lat), round4(lon)];
}

function polylineMiles(points: readonly LatLon[]): number {
  let miles = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as LatLon;
    const b = points[i] as LatLon;
    miles += haversineMiles({ latitude: a[0], longitude: a[1] }, { latitude: b[0], longitude: b[1] });
  }
  return miles;
}

function parseEdges(nodeById: Map<string, GraphNodeRow>) {
  return rows(EDGES).map((row) => {
    const [from = '', to = '', names = '', milesToken = '', ...shapeTokens] = row.split(/\s+/);
    const a = nodeById.get(from);
    const b = nodeById.get(to);
    if (!a || !b) throw new Error(`unknown node in edge: ${row}`);
    const [interstate = '', ...concurrent] = names.split('+');
    const shape = shapeTokens.map(parseLatLon);
    const geometry: LatLon[] = [[a.latitude, a.longitude], ...shape, [b.latitude, b.longitude]];
    const geometryMiles = polylineMiles(geometry);
    const chordMiles = haversineMiles(a, b);
    const estimated = milesToken.startsWith('~');
    const terrainKey = milesToken.slice(1) as TerrainKey;
    if (estimated && !(terrainKey in ESTIMATION_FACTORS)) throw new Error(`bad terrain class: ${row}`);
    const factor = estimated ? ESTIMATION_FACTORS[terrainKey] : undefined;
    const miles = factor ? Math.round(geometryMiles * factor) : Number(milesToken);
    return {
      row,
      chordMiles,
      geometryMiles,
      edge: {
        from,
        to,
        interstate,
        ...(concurrent.length > 0 ? { concurrent } : {}),
        miles,
        miles_estimated: estimated,
        ...(factor ? { terrain: TERRAIN[terrainKey], estimation_factor: factor } : {}),
        ...(shape.length > 0 ? { shape } : {}),
      },
    };
  });
}

function assertConnected(
  nodes: readonly GraphNodeRow[],
  edges: readonly { from: string; to: string }[],
): void {
  const neighbours = new Map<string, string[]>(nodes.map((node) => [node.id, []]));
  for (const { from, to } of edges) {
    neighbours.get(from)?.push(to);
    neighbours.get(to)?.push(from);
  }
  const start = nodes[0]?.id ?? '';
  const seen = new Set([start]);
  const queue = [start];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const next of neighbours.get(id) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  const unreached = nodes.filter((node) => !seen.has(node.id)).map((node) => node.id);
  if (unreached.length > 0) throw new Error(`graph not connected; unreached: ${unreached.join(', ')}`);
}

function build(): void {
  const nodes = parseNodes();
  const nodeById = new Map(nodes.map((node) => [node.id, node]));
  if (nodeById.size !== nodes.length) throw new Error('duplicate node id');
  const parsed = parseEdges(nodeById);
  const edges = parsed.map((entry) => entry.edge);
  const pairs = new Set<string>();
  for (const { from, to } of edges) {
    const key = [from, to].sort().join('|');
    if (pairs.has(key)) throw new Error(`duplicate edge ${key}`);
    pairs.add(key);
  }
  assertConnected(nodes, edges);

  for (const { row, chordMiles, edge } of parsed) {
    const ratio = edge.miles / chordMiles;
    if (ratio < 1 || ratio > 1.6)
      throw new Error(`road/straight ratio ${ratio.toFixed(2)} out of range: ${row}`);
  }
  // Calibration report: how known road miles compare with their shape polyline, per terrain guess.
  const known = parsed.filter((entry) => !entry.edge.miles_estimated);
  const knownRatios = known.map((entry) => entry.edge.miles / entry.geometryMiles).sort((x, y) => x - y);
  console.log(
    `known edges: ${known.length}; road/shape ratio min ${knownRatios[0]?.toFixed(3)} median ${knownRatios[
      Math.floor(knownRatios.length / 2)
    ]?.toFixed(3)} max ${knownRatios.at(-1)?.toFixed(3)}`,
  );

  const graph = {
    version: GRAPH_VERSION,
    name: 'US Interstate backbone',
    generated_by: 'scripts/build-highway-graph.ts',
    sources: [
      'Junction and city coordinates: public gazetteer positions (city centres or the interchange), 4 decimals.',
      'Interstate numbering and the city sequence along each route: the public Interstate Highway System route logs.',
      'Road miles where miles_estimated is false: published city-to-city road distances along the named interstate, rounded to the mile.',
      'Road miles where miles_estimated is true: great-circle length through the shape points x estimation_factor of the terrain class.',
    ],
    estimation: {
      method: 'miles = round(great-circle miles along [from, ...shape, to] x factor)',
      factors: { flat: ESTIMATION_FACTORS.f, rolling: ESTIMATION_FACTORS.r, mountain: ESTIMATION_FACTORS.m },
    },
    nodes,
    edges,
  };
  writeFileSync(OUTPUT, `${JSON.stringify(graph, null, 2)}\n`);
  // The committed file is in the project's Biome layout, so rebuilding an unchanged table is a no-op diff.
  execFileSync(BIOME, ['format', '--write', OUTPUT], { stdio: 'inherit' });
  const estimatedCount = edges.filter((edge) => edge.miles_estimated).length;
  console.log(`wrote ${OUTPUT}: ${nodes.length} nodes, ${edges.length} edges (${estimatedCount} estimated)`);
}

build();
