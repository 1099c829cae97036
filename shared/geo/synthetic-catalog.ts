import CheapRuler from 'cheap-ruler';
import graph from '../../data/highway-graph.json' with { type: 'json' };
import { modelDieselPrice, PRICE_MODEL_VERSION, unitHash } from '../domain/stations/price-model.ts';
import type { Station } from '../domain/stations/station.ts';
import { stableId } from '../platform/ids.ts';

/**
 * The embedded catalog: deterministic synthetic truck stops spaced along every interstate segment
 * of the highway graph, priced by the price model. It is what the sandbox serves ("synthetic
 * prices") and what production serves until a real feed is imported.
 *
 * Spacing: 25–60 miles between stops (truck stops cluster at interchanges roughly that often on
 * rural interstates); each stop sits 0.2–1.5 miles off the carriageway, so choosing one costs a
 * small, real detour. Every choice comes from a hash of the segment and the stop's index, so the
 * same graph always yields the same catalog (ids, places, prices).
 */
export const SYNTHETIC_SPACING_MILES = { min: 25, max: 60 } as const;
export const SYNTHETIC_OFFSET_MILES = { min: 0.2, max: 1.5 } as const;
/** Share of synthetic prices that are deliberately stale, so staleness handling is exercised. */
export const SYNTHETIC_STALE_SHARE = 0.05;

const CHAINS = ['Pilot Flying J', "Love's", 'TA', 'Petro', 'Sapp Bros', 'Kwik', 'Independent'] as const;
// Market shares of US truck-stop diesel, roughly: the two largest chains hold most locations.
const CHAIN_WEIGHTS = [0.34, 0.28, 0.14, 0.08, 0.04, 0.04, 0.08];
const AMENITIES = ['showers', 'parking', 'scales', 'def', 'restaurant', 'repair', 'wifi'] as const;

interface GraphNode {
  id: string;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
}

interface GraphEdge {
  from: string;
  to: string;
  interstate: string;
  shape?: number[][];
}

export const SYNTHETIC_CATALOG_VERSION = `synthetic-${graph.version}-${PRICE_MODEL_VERSION}`;

/** Uniform in [0, 1) from a seed. */
const unit = (seed: string) => (unitHash(seed) + 1) / 2;

function pickChain(seed: string): string {
  let r = unit(seed);
  for (let i = 0; i < CHAINS.length; i++) {
    r -= CHAIN_WEIGHTS[i] as number;
    if (r < 0) return CHAINS[i] as string;
  }
  return CHAINS[CHAINS.length - 1] as string;
}

/**
 * Builds the catalog. `nowMs` only dates the prices (most within the last 36 hours, a few stale);
 * everything else is fixed by the graph.
 */
export function buildSyntheticCatalog(nowMs: number): Station[] {
  const nodes = new Map((graph.nodes as GraphNode[]).map((node) => [node.id, node]));
  const stations: Station[] = [];
  for (const edge of graph.edges as GraphEdge[]) {
    const from = nodes.get(edge.from);
    const to = nodes.get(edge.to);
    if (!from || !to) continue;
    const line: [number, number][] = [
      [from.longitude, from.latitude],
      ...(edge.shape ?? []).map(([lat, lon]) => [lon as number, lat as number] as [number, number]),
      [to.longitude, to.latitude],
    ];
    const ruler = new CheapRuler((from.latitude + to.latitude) / 2, 'miles');
    const length = ruler.lineDistance(line);
    const edgeKey = `${edge.from}>${edge.to}>${edge.interstate}`;
    let along = SYNTHETIC_SPACING_MILES.min / 2 + unit(`${edgeKey}#start`) * SYNTHETIC_SPACING_MILES.min;
    for (let index = 0; along < length - 5; index++) {
      const seed = `${edgeKey}#${index}`;
      const onRoad = ruler.along(line, along);
      const bearing = ruler.bearing(ruler.along(line, Math.max(0, along - 1)), ruler.along(line, along + 1));
      const side = unit(`${seed}#side`) < 0.5 ? -90 : 90;
      const offset =
        SYNTHETIC_OFFSET_MILES.min +
        unit(`${seed}#offset`) * (SYNTHETIC_OFFSET_MILES.max - SYNTHETIC_OFFSET_MILES.min);
      const [longitude, latitude] = ruler.destination(onRoad, offset, bearing + side);
      // The nearer endpoint's state: a segment rarely crosses more than one border between its stops.
      const near = along < length / 2 ? from : to;
      const chain = pickChain(`${seed}#chain`);
      const id = stableId('station', `synthetic|${seed}`);
      const stale = unit(`${seed}#stale`) < SYNTHETIC_STALE_SHARE;
      const ageHours = stale ? 60 + unit(`${seed}#age`) * 240 : unit(`${seed}#age`) * 36;
      stations.push({
        id,
        name: `${chain} ${near.name} (${edge.interstate})`,
        chain,
        latitude: Math.round(latitude * 1e5) / 1e5,
        longitude: Math.round(longitude * 1e5) / 1e5,
        address: `${edge.interstate}, near ${near.name}, ${near.state}`,
        state: near.state,
        amenities: AMENITIES.filter((amenity) => unit(`${seed}#${amenity}`) < 0.7),
        fuels: unit(`${seed}#def`) < 0.85 ? ['diesel', 'def'] : ['diesel'],
        dieselPriceUsdPerGallon: modelDieselPrice({ id, state: near.state, chain }),
        priceUpdatedAtMs: nowMs - Math.round(ageHours * 3_600_000),
      });
      along +=
        SYNTHETIC_SPACING_MILES.min +
        unit(`${seed}#gap`) * (SYNTHETIC_SPACING_MILES.max - SYNTHETIC_SPACING_MILES.min);
    }
  }
  return stations;
}
