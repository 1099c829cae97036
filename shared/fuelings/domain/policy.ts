import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import { MATCH_WINDOW_HOURS } from './match-window.ts';

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
    /**
     * A fill matches a recommendation shown from this many minutes after the fill (clock skew: a
     * card's time and a breadcrumb's differ)…
     */
    matchEarlyMinutes: GUIDANCE_POLICY.fuelingMatchEarlyMinutes,
    /**
     * …or that stood at any moment of the hours before the fill, withdrawn or not: a driver who saw
     * the stop and drove there fueled where we told them, whatever the plan said after. Judged on
     * the fill's own time (`fueled_at`, the breadcrumbs' `recorded_at`).
     */
    matchWindowHours: MATCH_WINDOW_HOURS,
    /**
     * A fill elsewhere passed over a recommendation standing at its time, or withdrawn at most this
     * many minutes before (a card's `fueled_at` is the payment, which can come after the truck moved on).
     */
    passedOverGraceMinutes: 60,
    /** Recommendations older than this are not searched for a match (a session lasts days, not weeks). */
    matchLookbackDays: 7,
    /** A recommended stop withdrawn while at most this many road miles ahead was due (the approach radius). */
    dueWithinMiles: GUIDANCE_POLICY.approachRadiusMiles,
  }) as const)();
