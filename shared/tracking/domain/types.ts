/** One breadcrumb as the detectors see it. */
export interface TrackerFix {
  recordedAtMs: number;
  latitude: number;
  longitude: number;
  /** 0..100; noisy: sloshes by several points while moving. */
  fuelLevelPercent: number | null;
  /** May be missing; stationarity then falls back to the distance since the previous fix. */
  speedKmh: number | null;
}

/** A recommended fuel stop the vehicle may arrive at (the active guidance session's stops). */
export interface WatchedStop {
  stopId: string;
  stationId: string;
  name: string;
  latitude: number;
  longitude: number;
}

export interface TrackerContext {
  watchedStops: readonly WatchedStop[];
  tankGallons: number | null;
  mpg: number | null;
}

export type Detection =
  | { kind: 'stop_arrived'; atMs: number; stop: WatchedStop; latitude: number; longitude: number }
  | { kind: 'stop_departed'; atMs: number; stop: WatchedStop; arrivedAtMs: number; dwellMinutes: number }
  | {
      kind: 'fueling';
      startedAtMs: number;
      endedAtMs: number;
      latitude: number;
      longitude: number;
      levelBeforePercent: number;
      levelAfterPercent: number;
      /** rise × tank / 100, to 0.1 gal; null without tankGallons. */
      gallons: number | null;
    }
  | {
      kind: 'fuel_low';
      atMs: number;
      fuelLevelPercent: number;
      thresholdPercent: number;
      latitude: number;
      longitude: number;
    };

export interface LevelReading {
  atMs: number;
  percent: number;
}

/** The smoothed level at the latest reading, and how far the vehicle went after it. */
export interface FuelReport {
  percent: number;
  atMs: number;
  /** Raw great-circle miles between consecutive fixes since the report; the road factor comes later. */
  greatCircleMilesSince: number;
}

/**
 * A run of consecutive stationary fixes in one place, wherever it is: fuelings happen at
 * watched stops and anywhere else alike.
 */
export interface StationaryEpisode {
  startedAtMs: number;
  /** Where the episode began; later fixes must stay near it to extend the episode. */
  latitude: number;
  longitude: number;
  lastStationaryAtMs: number;
  /** Median of the readings up to the episode's first reading; null until a reading exists. */
  levelBeforePercent: number | null;
  /** The episode's latest readings (at most DETECTION_POLICY.afterLevelReadings), oldest first. */
  stationaryLevels: LevelReading[];
  /** Set once a fueling was emitted for this episode, so it is never emitted twice. */
  fuelingReported: boolean;
}

/** The vehicle's relation to a watched stop: settling (stationary, dwell not yet long enough) or arrived. */
export type StopVisit =
  | { phase: 'settling'; stop: WatchedStop; sinceMs: number; latitude: number; longitude: number }
  | { phase: 'arrived'; stop: WatchedStop; arrivedAtMs: number };

/**
 * Everything the detectors remember between batches. Plain JSON (the worker stores it in
 * DynamoDB) and bounded: a handful of readings, one episode, one visit.
 */
export interface TrackerState {
  /** The shape's version, so a reader can recognise state written by an older deployment. */
  version: 1;
  processedThroughMs: number | null;
  lastFix: TrackerFix | null;
  /** The latest reported readings, oldest first (at most DETECTION_POLICY.smoothingReadings). */
  recentLevels: LevelReading[];
  lastReport: FuelReport | null;
  /**
   * Great-circle miles between consecutive fixes since the first: where an assumed fuel level is
   * anchored (fuel-level.ts). Absent in a state without it: counts from there.
   */
  odometerMiles?: number;
  fuelLowArmed: boolean;
  episode: StationaryEpisode | null;
  visit: StopVisit | null;
}
