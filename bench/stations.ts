/**
 * Station-query figures: nearby queries against the embedded catalog, and the corridor query of a
 * 3,500-mile route against a 10,000-station catalog (the embedded catalog plus seeded synthetic
 * stops scattered over the lower 48, as a dense commercial feed would be).
 */
import { pathToFileURL } from 'node:url';
import { corridorStations } from '#shared/geo/corridor.ts';
import { densify } from '#shared/geo/polyline.ts';
import { routeLineFromPoints } from '#shared/geo/route-line.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '#shared/geo/synthetic-catalog.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { seededRandom } from '#test/support/seeded-random.ts';
import { percentileMs } from './measure.ts';

export interface StationBench {
  nearby_p50_ms: number;
  corridor_p50_ms: number;
  corridor_route_miles: number;
  corridor_catalog_size: number;
  corridor_stations_found: number;
}

function timeRuns(runs: number, fn: () => void): number[] {
  for (let i = 0; i < 20; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

export function benchStations(): StationBench {
  const random = seededRandom(42);
  const embedded = buildSyntheticCatalog(Date.now());
  const filler: Station[] = Array.from({ length: 10_000 - embedded.length }, (_, i) => ({
    ...(embedded[i % embedded.length] as Station),
    id: `stn_BENCH${String(i).padStart(21, '0')}`,
    latitude: 25 + random() * 24,
    longitude: -124 + random() * 57,
  }));
  const big = new StationIndex('bench-10k', [...embedded, ...filler]);
  const small = new StationIndex('embedded', embedded);

  // Queries where trucks are: near a catalog stop, not in empty desert.
  const nearby = timeRuns(500, () => {
    const at = embedded[Math.floor(random() * embedded.length)] as Station;
    small.nearby(at.latitude + (random() - 0.5) * 0.5, at.longitude + (random() - 0.5) * 0.5, 50, 25);
  });

  // Seattle → Los Angeles → El Paso → Dallas → Atlanta → Jacksonville → Miami: ~3,550 miles, 5-mile points.
  const line = routeLineFromPoints(
    densify([
      { latitude: 47.61, longitude: -122.33 },
      { latitude: 34.05, longitude: -118.24 },
      { latitude: 31.76, longitude: -106.49 },
      { latitude: 32.78, longitude: -96.8 },
      { latitude: 33.75, longitude: -84.39 },
      { latitude: 30.33, longitude: -81.66 },
      { latitude: 25.76, longitude: -80.19 },
    ]),
  );
  let found = 0;
  const corridor = timeRuns(200, () => {
    found = corridorStations(big, line, 5).length;
  });
  return {
    nearby_p50_ms: percentileMs(nearby, 0.5),
    corridor_p50_ms: percentileMs(corridor, 0.5),
    corridor_route_miles: Math.round(line.cumulativeMiles.at(-1) ?? 0),
    corridor_catalog_size: big.size,
    corridor_stations_found: found,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(benchStations());
