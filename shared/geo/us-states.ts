import { geoBounds, geoContains } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { milesRulerAt } from '#shared/kernel/distance.ts';
import { readGeoDataFile } from './data-files.ts';

/**
 * Which US state a point lies in, from the Census Bureau's cartographic boundaries (npm `us-atlas`,
 * 1:10,000,000, TopoJSON) tested with d3-geo's spherical point-in-polygon. At that scale a border
 * is placed to within a few hundred metres, plenty for labelling truck stops that sit a mile or
 * more off a border crossing, and the whole file is 112 KB.
 */

/** FIPS state code → USPS code, for the states and DC (the territories are never on the graph). */
const FIPS_TO_POSTAL: Record<string, string> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
};

interface StateShape {
  code: string;
  name: string;
  shape: GeoJSON.Feature;
  /** [[west, south], [east, north]] in degrees: a cheap test that rules out most states. */
  bounds: [[number, number], [number, number]];
}

let shapes: StateShape[] | undefined;

/** Read and decoded once per process, on first use (about 15 ms), so importing this module costs nothing. */
function stateShapes(): StateShape[] {
  if (shapes) return shapes;
  const topology = readGeoDataFile('usStates') as Topology<{ states: GeometryCollection<{ name: string }> }>;
  const collection = feature(topology, topology.objects.states);
  shapes = collection.features.flatMap((shape) => {
    const code = FIPS_TO_POSTAL[String(shape.id)];
    if (!code) return [];
    return [{ code, name: shape.properties?.name ?? code, shape, bounds: geoBounds(shape) }];
  });
  return shapes;
}

/**
 * The USPS code of the state containing the point, or undefined outside every state (offshore,
 * in a Great Lake, across the Canadian or Mexican border).
 *
 * @example
 * stateAt(34.3339, -97.16283); // 'OK' (south of Ardmore, north of the Red River)
 * stateAt(33.2148, -97.1331); // 'TX' (Denton)
 */
export function stateAt(
  latitude: number,
  longitude: number,
  /** States to test first (e.g. those of the road's endpoints); only the order of tests changes. */
  likely: readonly string[] = [],
): string | undefined {
  for (const code of likely) {
    const state = shapeOf(code);
    if (state && contains(state, latitude, longitude)) return code;
  }
  return stateShapes().find((state) => contains(state, latitude, longitude))?.code;
}

/** The state's name (`OK` → `Oklahoma`); the code itself when it is not a state. */
export function stateName(code: string): string {
  return shapeOf(code)?.name ?? code;
}

/** Whether the named state (USPS code) contains the point; false for an unknown code. */
export function stateContains(code: string, latitude: number, longitude: number): boolean {
  const state = shapeOf(code);
  return state !== undefined && contains(state, latitude, longitude);
}

/**
 * Whether the named state contains the point or a point within `toleranceMiles` of it (sampled on
 * rings at half and the full distance, 16 bearings each). The 1:10M outlines place a border a few
 * hundred metres off, so a truck stop at a state line can fall just outside its own state.
 */
export function stateContainsNear(
  code: string,
  latitude: number,
  longitude: number,
  toleranceMiles: number,
): boolean {
  const state = shapeOf(code);
  if (!state) return false;
  if (contains(state, latitude, longitude)) return true;
  const ruler = milesRulerAt(latitude);
  for (const miles of [toleranceMiles / 2, toleranceMiles]) {
    for (let bearing = 0; bearing < 360; bearing += 22.5) {
      const [lon, lat] = ruler.destination([longitude, latitude], miles, bearing);
      if (contains(state, lat, lon)) return true;
    }
  }
  return false;
}

function shapeOf(code: string): StateShape | undefined {
  return stateShapes().find((candidate) => candidate.code === code);
}

function contains(state: StateShape, latitude: number, longitude: number): boolean {
  const [[west, south], [east, north]] = state.bounds;
  if (latitude < south || latitude > north) return false;
  // Alaska's box crosses the antimeridian: there west > east and the box is the outside of [east, west].
  const inLongitudes =
    west <= east ? longitude >= west && longitude <= east : longitude >= west || longitude <= east;
  if (!inLongitudes) return false;
  return geoContains(state.shape, [longitude, latitude]);
}
