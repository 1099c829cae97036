import CheapRuler from 'cheap-ruler';
import { stableId } from '#shared/kernel/ids.ts';
import { modelDieselPrice, PRICE_MODEL_VERSION, unitHash } from '#shared/stations/domain/price-model.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { highwayGraphData } from './highway-graph.ts';
import { stateAt, stateName } from './us-states.ts';

/**
 * The embedded catalog: deterministic synthetic truck stops spaced along every interstate segment
 * of the highway graph, priced by the price model. It is what the sandbox serves ("synthetic
 * prices") and what production serves until a real feed is imported.
 *
 * Spacing: 25–60 miles between stops (truck stops cluster at interchanges roughly that often on
 * rural interstates); each stop sits 0.2–1.5 miles off the carriageway, so choosing one costs a
 * small, real detour. Every choice comes from a hash of the segment and the stop's index, so the
 * same graph always yields the same catalog (ids, places, prices).
 *
 * Geography: a stop's state is the state its coordinates lie in (shared/geo/us-states.ts), and it
 * is priced with that state's tax; its "near" town is the nearest city of the highway graph,
 * preferring one in the same state, within {@link NEAR_TOWN_MAX_MILES}. A stop whose offset would
 * put it in no state (a lake shore, a border river) moves to the other side of the road, then onto
 * the road; if even that is outside every state, there is no stop there.
 */
export const SYNTHETIC_SPACING_MILES = { min: 25, max: 60 } as const;
export const SYNTHETIC_OFFSET_MILES = { min: 0.2, max: 1.5 } as const;
/** Share of synthetic prices that are deliberately stale, so staleness handling is exercised. */
export const SYNTHETIC_STALE_SHARE = 0.05;
/** Farther than this from every graph city, a stop is named after its interstate and state alone (`Love's I-35 Oklahoma`). */
export const NEAR_TOWN_MAX_MILES = 60;

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

/**
 * The catalog's version, from the graph's (a function: the graph is read on first use).
 * `geo2`: states from coordinates (before: the nearer graph endpoint's state).
 */
export function syntheticCatalogVersion(): string {
  return `synthetic-${highwayGraphData().version}-${PRICE_MODEL_VERSION}-geo2`;
}

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
  const graph = highwayGraphData();
  const nodes = new Map((graph.nodes as GraphNode[]).map((node) => [node.id, node]));
  const cities = [...nodes.values()];
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
      const place = placeInAState(
        [
          ruler.destination(onRoad, offset, bearing + side),
          ruler.destination(onRoad, offset, bearing - side),
          onRoad,
        ],
        [from.state, to.state],
      );
      if (place) {
        const { state, point } = place;
        const [longitude, latitude] = point;
        const town = nearTown(cities, ruler, point, state);
        const chain = pickChain(`${seed}#chain`);
        const id = stableId('station', `synthetic|${seed}`);
        const stale = unit(`${seed}#stale`) < SYNTHETIC_STALE_SHARE;
        const ageHours = stale ? 60 + unit(`${seed}#age`) * 240 : unit(`${seed}#age`) * 36;
        stations.push({
          id,
          name: town
            ? `${chain} ${town.name} (${edge.interstate})`
            : `${chain} ${edge.interstate} ${stateName(state)}`,
          chain,
          latitude,
          longitude,
          address: describeAddress(edge.interstate, state, town),
          state,
          amenities: AMENITIES.filter((amenity) => unit(`${seed}#${amenity}`) < 0.7),
          fuels: unit(`${seed}#def`) < 0.85 ? ['diesel', 'def'] : ['diesel'],
          dieselPriceUsdPerGallon: modelDieselPrice({ id, state, chain }),
          priceUpdatedAtMs: nowMs - Math.round(ageHours * 3_600_000),
        });
      }
      along +=
        SYNTHETIC_SPACING_MILES.min +
        unit(`${seed}#gap`) * (SYNTHETIC_SPACING_MILES.max - SYNTHETIC_SPACING_MILES.min);
    }
  }
  return stations;
}

/**
 * The first candidate that lies in a state (the chosen side, the other side, the road itself),
 * rounded to the 5 decimals the catalog keeps: the published coordinates are the ones tested.
 */
function placeInAState(
  candidates: [number, number][],
  likelyStates: readonly string[],
): { state: string; point: [number, number] } | undefined {
  const round = (degrees: number) => Math.round(degrees * 1e5) / 1e5;
  for (const [longitude, latitude] of candidates) {
    const point: [number, number] = [round(longitude), round(latitude)];
    const state = stateAt(point[1], point[0], likelyStates);
    if (state) return { state, point };
  }
  return undefined;
}

/**
 * The nearest graph city within NEAR_TOWN_MAX_MILES, one in the stop's own state if there is one
 * (a stop in Oklahoma is "near Ardmore", not near a Texas city a little closer), else any.
 */
function nearTown(
  cities: readonly GraphNode[],
  ruler: CheapRuler,
  point: [number, number],
  state: string,
): GraphNode | undefined {
  let sameState: { city: GraphNode; miles: number } | undefined;
  let any: { city: GraphNode; miles: number } | undefined;
  for (const city of cities) {
    const miles = ruler.distance(point, [city.longitude, city.latitude]);
    if (miles > NEAR_TOWN_MAX_MILES) continue;
    if (!any || miles < any.miles) any = { city, miles };
    if (city.state === state && (!sameState || miles < sameState.miles)) sameState = { city, miles };
  }
  return (sameState ?? any)?.city;
}

/** `I-35, near Ardmore, OK`; a town across the border is named with its own state. */
function describeAddress(interstate: string, state: string, town: GraphNode | undefined): string {
  if (!town) return `${interstate}, ${state}`;
  if (town.state === state) return `${interstate}, near ${town.name}, ${state}`;
  return `${interstate}, ${state} (near ${town.name}, ${town.state})`;
}
