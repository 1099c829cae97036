/** One breadcrumb as ingest accepted it: where and when, with what the vehicle reported then. */
export interface PositionFix {
  latitude: number;
  longitude: number;
  recordedAtMs: number;
  receivedAtMs: number;
  fuelLevelPercent: number | null;
  speedKmh: number | null;
  headingDegrees: number | null;
  driverRef: string | null;
  address: string | null;
}

export interface LatestPosition extends PositionFix {
  recordedAt: string;
  /**
   * The direction of travel there, by the breadcrumbs stored with the position (heading.ts); null
   * or absent when the truck stands still or its direction cannot be told.
   */
  travelHeadingDegrees?: number | null;
}

/** A breadcrumb as history keeps it (the fields detection reads). */
export interface HistoryPoint {
  recordedAtMs: number;
  latitude: number;
  longitude: number;
  fuelLevelPercent: number | null;
  speedKmh: number | null;
}

/**
 * A breadcrumb as `[recorded ms, latitude, longitude, fuel %, km/h]`: the layout the position ring,
 * history chunks and vehicle-updates messages carry it in.
 */
export type BreadcrumbTuple = [number, number, number, number | null, number | null];

export const breadcrumbTuple = (point: HistoryPoint): BreadcrumbTuple => [
  point.recordedAtMs,
  point.latitude,
  point.longitude,
  point.fuelLevelPercent,
  point.speedKmh,
];

/** A vehicle's latest position with the breadcrumbs its item holds (what the worker reads each cycle). */
export interface RecentPositions {
  latest: LatestPosition;
  /** Every stored breadcrumb recorded after `flushedThroughMs`, oldest first. */
  recent: HistoryPoint[];
  /** Breadcrumbs recorded up to this time are in the history items; null: none is (all are recent). */
  flushedThroughMs: number | null;
  /** The item's version (0 for an item without a ring). */
  version: number;
}
