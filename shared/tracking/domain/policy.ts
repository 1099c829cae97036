/**
 * Every threshold the breadcrumb detectors use, in one place so the docs (docs/api-guide.md) can quote them and a
 * change is one reviewed line. Breadcrumbs arrive every 1–5 minutes; tank sensors slosh by ±5–8
 * points while moving and read within a point or two at rest. Marked pure: a function that never
 * reads it (the webhook routes import its module through the test-send samples) drops it.
 */
export const DETECTION_POLICY = /* @__PURE__ */ Object.freeze({
  /**
   * 5 mph: idling in a lot or creeping in a pump queue, while traffic still moving is faster.
   * Ingest stores mph × 1.609344 rounded to 0.01 km/h, so a reported 5 mph is exactly 8.05 km/h.
   */
  stationaryMaxSpeedKmh: 8.05,
  /**
   * Without a speed, at most 0.1 mi since the previous fix counts as stationary: more than GPS
   * jitter (tens of metres), and at most 6 mph even at the shortest 1-minute cadence.
   */
  stationaryMaxStepMiles: 0.1,
  /** A truck stop's pumps and lot lie within about 400 m of its listed coordinates. */
  arrivalRadiusMiles: 0.25,
  /**
   * Twice the arrival radius, so GPS jitter or a move across the lot never ends a visit; a slower
   * exit is caught sooner by moving above the stationary speed outside the arrival radius.
   */
  departureRadiusMiles: 0.5,
  /**
   * An arrival needs 3 minutes stationary within the radius: longer than a traffic-signal cycle
   * (the exit-ramp light next to a truck stop is inside the radius), shorter than any fuel stop.
   */
  minDwellMinutes: 3,
  /**
   * The smoothed level is the median of the last 5 readings: it ignores up to 2 sloshing outliers
   * and lags a real change by 3 readings (3–15 minutes). Also bounds the readings kept in state.
   */
  smoothingReadings: 5,
  /**
   * The level after a stationary episode is the median of its last 3 readings: it ignores one
   * spike, and the post-fill plateau dominates as soon as the pump has stopped.
   */
  afterLevelReadings: 3,
  /**
   * A fueling is a rise of at least 10 points: well above what slosh leaves after the medians
   * (about ±3), well below a real truck fill (usually 30+ points).
   */
  fuelingMinRisePercent: 10,
  /**
   * A stationary episode must span 4 minutes to count as a fueling: red lights and stop signs are
   * shorter, a fill is longer, and at a 5-minute cadence two stationary fixes still qualify.
   */
  fuelingMinStationaryMinutes: 4,
  /** At least 2 stationary readings, so the after-level never rests on one sloshing sample. */
  fuelingMinStationaryReadings: 2,
  /**
   * While still stationary, a fueling is reported once its last 3 readings lie within 3 points:
   * a pump adds 5+ points a minute, so a flat run means the nozzle is out. Without this, a truck
   * that fuels and then parks overnight would report its fueling only the next morning.
   */
  plateauSpreadPercent: 3,
  /**
   * Stationary fixes farther than 0.25 mi from where the episode began start a new episode: a
   * "stationary" chain wandering farther than a lot is stop-and-go traffic or a gap in the data.
   */
  episodeRadiusMiles: 0.25,
  /** Fuel low fires when the smoothed level drops below 20 %: a quarter-tank warning with margin. */
  fuelLowThresholdPercent: 20,
  /**
   * Re-armed only above 30 %: a 10-point gap that slosh after smoothing cannot bridge, so one
   * low tank fires once, and a real refill (or a partial one) re-arms it.
   */
  fuelLowRearmPercent: 30,
  /**
   * Breadcrumbs 1–5 minutes apart cut corners only slightly (ramps and city grids more,
   * interstates less); 10 % on the great-circle miles errs towards a lower, safer estimate.
   */
  roadFactor: 1.1,
} as const);

export type DetectionPolicy = typeof DETECTION_POLICY;
