/**
 * Guidance policy, in one place so the docs (docs/api-guide.md) and the code cannot drift. Detection thresholds
 * (dwell, fueling, fuel-low) live in shared/tracking/domain.
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
  /**
   * …or its net price moving by at least this (USD per gallon): hourly price feeds move a station
   * by a few cents, which is not news to a driver already heading there.
   */
  materialNetPriceChange: 0.1,
  /**
   * Commitment: the stop a driver was shown stays the first stop while it still works, unless a new
   * plan saves at least this much (USD, the fuel left to buy on the trip)…
   */
  commitmentSwitchMinUsd: 20,
  /** …or this fraction of that fuel spend, whichever is more (a few cents a gallon never qualifies)… */
  commitmentSwitchMinFraction: 0.05,
  /**
   * …and the stop is still more than this many road miles ahead: about half an hour at highway
   * speed, the time a driver has already planned the stop into (hours of service, a break, the lane).
   * Nearer, only a stop that stops working (closed, skipped, out of reach with the reserve) is replaced.
   */
  commitmentFarMiles: 30,
  /**
   * A kept stop may be reached with this share of the fuel reserve left (the rest of the reserve is
   * the band it may eat into): a gauge wobbling by a few gallons must not add a splash-and-go five
   * miles before the stop the driver is already heading for. Below it, the stop is out of reach.
   */
  commitmentReserveShare: 0.5,
  /**
   * What a fuel gauge's noise is taken to be, in points of the tank (slosh on a grade, after
   * smoothing): a truck whose plan needs the reserve waived once its gauge reads this much lower
   * keeps its shown stop as a plan without the reserve would, so noise never decides the stop.
   */
  gaugeNoisePercent: 2,
  /**
   * Hysteresis between phases: a plan with stops becomes "no stop needed" only when no stop is
   * needed even to arrive with this many points of the tank more than min_arrival_fuel_percent:
   * more than the ±3 points a sloshing gauge leaves after smoothing, so the stop is not taken away
   * and given back as the level wobbles around the arrival margin. A fill clears it at once.
   */
  noStopBandPercent: 8,
  /** A detected fueling matches a recommended stop within this distance of the station… */
  fuelingMatchRadiusMiles: 0.5,
  /** …and from this many minutes before it was recommended (clocks and processing lag). */
  fuelingMatchEarlyMinutes: 30,
  /**
   * A recommended stop stays the target while the vehicle heads to it (stop-approach.ts), even
   * when its position, off the route, projects level with or past the station's point on the
   * route (which would otherwise drop the station as "behind"). Within this distance of the
   * station itself, and no nearer to another corridor station, the vehicle is at the station
   * whatever it does: the same radius detection uses for a departure, so the lot, the pumps and
   * GPS jumps across them all count.
   */
  approachAtStationRadiusMiles: 0.5,
  /**
   * Off the route: farther than this from the route line, the truck has left the interstate (a
   * lane and GPS error are well under it; an exit ramp passes it within its first few hundred
   * yards). Nearer, it is still on the route and must show real movement towards the station.
   */
  approachOnRouteMaxMiles: 0.1,
  /**
   * Heading there off the route: the vehicle may be at most the stop's one-way detour (half its
   * detour_miles, the station's own distance from the route) plus this margin off the route. The
   * surface road and the station's lot reach a little beyond the station's listed point; a truck
   * farther out than that is going somewhere else.
   */
  approachOffRouteMarginMiles: 0.5,
  /**
   * …or at most this far off the route on the other side of it from the station (judged from the
   * distances, the route taken as straight near the station's point): the exit ramp and its loop
   * on the far side, for a station reached by crossing over the interstate. Farther out on that
   * side the truck is going somewhere else.
   */
  approachOppositeSideMaxMiles: 0.3,
  /**
   * …with the station's point on the route passed by at most this many road miles: an interchange
   * and its ramps span about a mile, so an exit just after the station's point and a surface road
   * that runs back to it project a little past it.
   */
  approachPassedMaxMiles: 1.5,
  /**
   * …and the station's point at most this many road miles ahead: before that, the vehicle is still
   * on its way along the route and the ordinary replan (which keeps a working stop) applies.
   */
  approachLeadMiles: 1,
  /**
   * Still on the route (within approachOnRouteMaxMiles of it), the breadcrumb whose segment from the
   * previous one crosses the station's point is held up to this many road miles past it: one
   * breadcrumb's travel at 62 mph and the slowest recommended cadence (5 minutes). An exit ramp's
   * first stretch runs beside the interstate, so that breadcrumb cannot tell the ramp from the
   * interstate: the next one decides.
   */
  approachCrossingMaxMiles: 5,
  /**
   * Later breadcrumbs on the route past the point hold the stop only while the straight-line
   * distance to the station shrank by at least this since the previous breadcrumb (about 80 m:
   * real movement towards it, not GPS jitter or a standstill); on the interstate it only grows.
   */
  approachMinClosingMiles: 0.05,
  /** A vehicle silent this long is offline (vehicle.offline); recommended cadence is 1–5 minutes. */
  offlineAfterMinutes: 15,
} as const;
