import { geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'us-atlas/states-albers-10m.json' with { type: 'json' };

/**
 * The United States as two SVG paths, from the Census Bureau's cartographic boundaries (npm
 * `us-atlas`, bundled into the page's script: nothing is fetched). The file is already projected
 * for the map's viewport (projection.ts), so geoPath draws it as is.
 */
export function stateOutlines(): { land: string; borders: string } {
  const topology = atlas as unknown as Topology<{ states: GeometryCollection }>;
  const states = topology.objects.states;
  const path = geoPath();
  return {
    land: path(feature(topology, states)) ?? '',
    // Interior borders only (a !== b), so the coastline is not stroked twice.
    borders: path(mesh(topology, states, (a, b) => a !== b)) ?? '',
  };
}
