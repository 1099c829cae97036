/**
 * Guidance policy, in one place so the README and the code cannot drift. Detection thresholds
 * (dwell, fueling, fuel-low) live in shared/domain/telematics.
 */
export const GUIDANCE_POLICY = {
  /** guidance.stop_approaching and the approaching_stop phase: road miles ahead to stops[0]. About 10 minutes at highway speed: time to plan the exit. */
  approachRadiusMiles: 10,
  /** The session completes (phase arrived) within this many miles of the destination. */
  destinationRadiusMiles: 1,
  /** Farther than this from the cached route, the vehicle is re-routed from where it is. */
  offRouteRerouteMiles: 5,
  /** Stations this far off the remaining route are candidates, as on POST /v1/routes' default. */
  corridorWidthMiles: 2,
  /** guidance.updated fires for a change in the stop set, or a stop's gallons moving by at least this… */
  materialGallonsChange: 10,
  /** …or its net price moving by at least this (USD per gallon). */
  materialNetPriceChange: 0.05,
  /**
   * A recommended stop is kept while it still works and costs at most this much more (USD, whole
   * trip) than the best new plan: stability a driver can follow beats a few cents.
   */
  stickinessUsd: 5,
  /** A detected fueling matches a recommended stop within this distance of the station… */
  fuelingMatchRadiusMiles: 0.5,
  /** …and from this many minutes before (clocks and processing lag) … */
  fuelingMatchEarlyMinutes: 30,
  /** …until this many hours after the stop was recommended. */
  fuelingMatchWindowHours: 12,
  /** A vehicle silent this long is offline (vehicle.offline); recommended cadence is 1–5 minutes. */
  offlineAfterMinutes: 15,
} as const;
