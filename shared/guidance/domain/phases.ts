/**
 * The phases of a guidance session (the v1 contract names only `stop_recommended`; the rest are
 * ours). Published in the OpenAPI document (GuidancePhase) and docs/api-guide.md, with the transitions.
 */
export const GUIDANCE_PHASES = [
  {
    phase: 'awaiting_position',
    description: 'The session has no breadcrumb from the vehicle yet; guidance starts with the first one.',
  },
  {
    phase: 'awaiting_fuel_level',
    description:
      'The vehicle reports positions but has no tank_size_gallons or estimated_mpg: no fuel level can be projected or assumed without them.',
  },
  {
    phase: 'no_stop_needed',
    description: 'The vehicle reaches the destination above min_arrival_fuel_percent without buying fuel.',
  },
  {
    phase: 'stop_recommended',
    description:
      'stops[0] is more than the approach radius ahead: the first stop of the least-cost plan on the remaining route, or the stop already shown, which is kept while it still works unless a new plan saves at least $20 (or 5 % of the fuel spend left) and the stop is more than 30 miles ahead.',
  },
  {
    phase: 'approaching_stop',
    description:
      'stops[0] is within the approach radius ahead, or the vehicle has left the route heading to its station (guidance.stop_approaching fired once for it); the plan is held while it heads there.',
  },
  {
    phase: 'at_stop',
    description:
      'The vehicle dwells at stops[0] (vehicle.stop_arrived fired); the plan is held until it departs.',
  },
  {
    phase: 'cannot_reach',
    description:
      'Urgent: no plan reaches the destination with the fuel on board, even spending the reserve; stops[0], if any, is the nearest station in range (fill up there), never one a `required` fuel card program refuses. With plan_status no_accepted_station_in_range and no stops, no accepted station is within reach and fuel_program_shortfall says how far short the tank falls (an accepted stop within reach before the uncovered stretch is shown with phase stop_recommended or approaching_stop instead).',
  },
  {
    phase: 'data_stale',
    description:
      'The latest breadcrumb is older than the stale threshold; the last plan is shown but may no longer hold.',
  },
  {
    phase: 'arrived',
    description: 'The vehicle reached the destination; the session ended (status completed).',
  },
] as const;

export type GuidancePhase = (typeof GUIDANCE_PHASES)[number]['phase'];
export const GUIDANCE_PHASE_VALUES = GUIDANCE_PHASES.map((p) => p.phase) as [
  GuidancePhase,
  ...GuidancePhase[],
];

/** What moves a session from one phase to another; `*` is any phase of an active session. */
export const PHASE_TRANSITIONS: readonly {
  from: string;
  to: GuidancePhase | '(recomputed)';
  when: string;
}[] = [
  { from: '(start)', to: 'awaiting_position', when: 'session created before the first breadcrumb' },
  {
    from: 'awaiting_position',
    to: 'awaiting_fuel_level',
    when: 'a breadcrumb arrives, but the vehicle has no tank_size_gallons or estimated_mpg',
  },
  { from: '*', to: 'no_stop_needed', when: 'the plan from the current position needs no purchase' },
  {
    from: '*',
    to: 'stop_recommended',
    when: 'the plan needs a purchase; stops[0] is beyond the approach radius',
  },
  {
    from: 'stop_recommended',
    to: 'approaching_stop',
    when: 'stops[0] comes within the approach radius, or the vehicle leaves the route heading to its station',
  },
  { from: 'approaching_stop', to: 'at_stop', when: 'GPS dwell at stops[0] (vehicle.stop_arrived)' },
  { from: 'at_stop', to: 'no_stop_needed', when: 'departure after fueling enough to finish the trip' },
  { from: 'at_stop', to: 'stop_recommended', when: 'departure; the plan from here needs another stop' },
  { from: '*', to: 'cannot_reach', when: 'no feasible plan with the fuel on board' },
  {
    from: '*',
    to: 'data_stale',
    when: 'the latest breadcrumb is older than the stale threshold (when read)',
  },
  { from: 'data_stale', to: '(recomputed)', when: 'a fresh breadcrumb arrives and the plan is recomputed' },
  { from: '*', to: 'arrived', when: 'the vehicle is within the destination radius; the session completes' },
];
