import { GUIDANCE_POLICY } from '../guidance/policy.ts';

/**
 * The thresholds of fueling records, their match to recommendations and the savings report, in one
 * place so docs/fuelings-and-savings.md and the code cannot drift. Built by a function marked pure,
 * not written as a literal: some members read GUIDANCE_POLICY, and a literal with member reads stays
 * in every bundle that imports this module, used or not (docs/cold-starts.md).
 */
export const FUELING_POLICY = /* @__PURE__ */ (() =>
  ({
    /** A reported and a detected fueling of one vehicle this close… */
    mergeRadiusMiles: 0.5,
    /** …and this close in time are the same fill (card clocks and the detection's end differ by minutes). */
    mergeWindowMinutes: 60,
    /**
     * A fueling is at a recommended station when it names the station, or lies within this distance
     * of it: the radius guidance already uses for a detected fill (a truck stop's lot and pumps).
     */
    matchRadiusMiles: GUIDANCE_POLICY.fuelingMatchRadiusMiles,
    /** A recommendation stands from this many minutes before it was made (clock skew, processing lag)… */
    matchEarlyMinutes: GUIDANCE_POLICY.fuelingMatchEarlyMinutes,
    /**
     * …until this many minutes after it was withdrawn: the plan drops a stop when the truck departs
     * from it, and a card's `fueled_at` is the payment, which can come after the truck moved on.
     */
    matchGraceMinutes: 60,
    /** Recommendations older than this are not searched for a match (a session lasts days, not weeks). */
    matchLookbackDays: 7,
    /** A recommended stop withdrawn while at most this many road miles ahead was due (the approach radius). */
    dueWithinMiles: GUIDANCE_POLICY.approachRadiusMiles,
    /** A fueling's benchmark is the average posted price of the catalog's stations within this radius. */
    benchmarkRadiusMiles: 25,
    /** Stations averaged at most (nearest first): plenty for an average, bounded work per fueling. */
    benchmarkMaxStations: 50,
  }) as const)();
