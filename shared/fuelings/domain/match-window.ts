/*
 * What the published fueling resource says about matching, apart from the matching itself: the API
 * schemas read these without bundling the geometry and policies of matching.ts.
 */

/**
 * A fill matches a recommendation of its vehicle that stood at any moment of this many hours before
 * the fill, withdrawn or not (FUELING_POLICY.matchWindowHours).
 */
export const MATCH_WINDOW_HOURS = 6;

/**
 * Why a fill matched no recommendation, as the fueling says (`unmatched_reason`):
 * - `no_guidance`: no recommendation of the vehicle stood within the match window of the fill;
 * - `outside_window`: the fill was at a station the vehicle was recommended, but not within the
 *   window (shown only later, or withdrawn more than the window before the fill);
 * - `no_position`: recommendations stood, but the fill names no catalog station and carries no
 *   position, so where it was cannot be compared;
 * - `not_at_recommended_station`: recommendations stood, and the fill was at none of their stations;
 * - `no_stop_due`: the fill was elsewhere while only stops further on stood: none was yet the stop
 *   the truck was heading to, so no advice was passed over.
 */
export const UNMATCHED_REASONS = [
  'no_guidance',
  'outside_window',
  'no_position',
  'not_at_recommended_station',
  'no_stop_due',
] as const;
export type UnmatchedReason = (typeof UNMATCHED_REASONS)[number];
