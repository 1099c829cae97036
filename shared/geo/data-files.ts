import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The geographic data files, read and parsed on first use instead of imported. Imported JSON is
 * JavaScript a function evaluates at every cold start (the highway graph and the state shapes are
 * ~200 KB of a planning function's bundle), used or not; `JSON.parse` of a file costs a few
 * milliseconds once, when a route or a catalog is first built.
 *
 * Run from source (tests, the local stack, scripts) the files are read where they live. The Lambda
 * bundles replace this module with one reading the copies written beside the bundle
 * (scripts/bundle-functions.ts, `lazyDataFiles`), under the names in {@link GEO_DATA_FILES}.
 */
export const GEO_DATA_FILES = {
  /** The US Interstate backbone (scripts/build-highway-graph.ts). */
  highwayGraph: {
    name: 'highway-graph.json',
    source: fileURLToPath(new URL('../../data/highway-graph.json', import.meta.url)),
  },
  /** The Census Bureau's state boundaries, TopoJSON (npm `us-atlas`). */
  usStates: {
    name: 'us-states-10m.json',
    source: createRequire(import.meta.url).resolve('us-atlas/states-10m.json'),
  },
} as const;

export type GeoDataFile = keyof typeof GEO_DATA_FILES;

/** The parsed file; the caller caches it (each is read once per process). */
export function readGeoDataFile(file: GeoDataFile): unknown {
  return JSON.parse(readFileSync(GEO_DATA_FILES[file].source, 'utf8'));
}
