import CheapRuler from 'cheap-ruler';
import KDBush from 'kdbush';
import type { Station } from '#shared/stations/domain/station.ts';

export interface NearbyStation {
  station: Station;
  distanceMiles: number;
}

/**
 * An immutable spatial index over the catalog (kdbush over longitude/latitude). Distances use
 * cheap-ruler at the query's latitude: within 0.1 % of great-circle distance at these radii, and
 * an order of magnitude cheaper than haversine. Rebuilt only when the catalog version changes.
 */
export class StationIndex {
  readonly version: string;
  readonly size: number;
  readonly #stations: readonly Station[];
  /** kdbush refuses an empty index; an empty catalog simply has none. */
  readonly #index: KDBush | null;

  constructor(version: string, stations: readonly Station[]) {
    this.version = version;
    this.#stations = stations;
    this.size = stations.length;
    if (stations.length === 0) {
      this.#index = null;
      return;
    }
    const index = new KDBush(stations.length);
    for (const station of stations) index.add(station.longitude, station.latitude);
    index.finish();
    this.#index = index;
  }

  #byId: Map<string, Station> | undefined;

  /** The station with this id, if the catalog has it (the map is built on first use). */
  byId(id: string): Station | null {
    this.#byId ??= new Map(this.#stations.map((station) => [station.id, station]));
    return this.#byId.get(id) ?? null;
  }

  /** Stations within `radiusMiles` of the point that pass `accept`, nearest first, at most `limit`. */
  nearby(
    latitude: number,
    longitude: number,
    radiusMiles: number,
    limit: number,
    accept: (station: Station) => boolean = () => true,
  ): NearbyStation[] {
    const ruler = new CheapRuler(latitude, 'miles');
    const found: NearbyStation[] = [];
    for (const id of this.#candidates(ruler, latitude, longitude, radiusMiles)) {
      const station = this.#stations[id] as Station;
      const distanceMiles = ruler.distance([longitude, latitude], [station.longitude, station.latitude]);
      if (distanceMiles <= radiusMiles && accept(station)) found.push({ station, distanceMiles });
    }
    // Ties (same distance) break by id so results are stable across index rebuilds.
    found.sort((a, b) => a.distanceMiles - b.distanceMiles || a.station.id.localeCompare(b.station.id));
    return found.slice(0, limit);
  }

  /** Every station within `radiusMiles` of any of the points, each once (for corridor queries). */
  aroundPoints(points: readonly { latitude: number; longitude: number }[], radiusMiles: number): Station[] {
    const seen = new Set<number>();
    const result: Station[] = [];
    for (const point of points) {
      const ruler = new CheapRuler(point.latitude, 'miles');
      for (const id of this.#candidates(ruler, point.latitude, point.longitude, radiusMiles)) {
        if (seen.has(id)) continue;
        const station = this.#stations[id] as Station;
        if (
          ruler.distance([point.longitude, point.latitude], [station.longitude, station.latitude]) <=
          radiusMiles
        ) {
          seen.add(id);
          result.push(station);
        }
      }
    }
    return result;
  }

  #candidates(ruler: CheapRuler, latitude: number, longitude: number, radiusMiles: number): number[] {
    const [minX, minY, maxX, maxY] = ruler.bufferPoint([longitude, latitude], radiusMiles);
    return this.#index ? this.#index.range(minX, minY, maxX, maxY) : [];
  }
}
