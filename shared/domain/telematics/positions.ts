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
}

/** A breadcrumb as history keeps it (the fields detection reads). */
export interface HistoryPoint {
  recordedAtMs: number;
  latitude: number;
  longitude: number;
  fuelLevelPercent: number | null;
  speedKmh: number | null;
}
