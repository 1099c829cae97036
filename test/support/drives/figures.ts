/**
 * What the simulated fleet's outcomes (harness.ts) say, judged against the generator's truth: the
 * loop events of each drive and the fleet figures `npm run bench` prints.
 */

import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { DEFAULT_RESERVE_FRACTION } from '#shared/fuel-plan/domain/policy.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import { drivesToShownStop, routeOf } from './generator.ts';
import type { DriveOutcome, SeenStop } from './harness.ts';

/** The events of the fuelling loop for one stop, in the order they were recorded. */
export const LOOP_EVENTS = [
  'vehicle.stop_arrived',
  'fueling.recorded',
  'fueling.matched',
  'vehicle.stop_departed',
] as const;

/**
 * The loop events that concern the shown stop: arrival and departure at its station (or naming
 * it), the fill recorded there (the one `fueling.matched` names, or any fill when none matched),
 * and the match naming its station.
 */
export function loopEventsAt(outcome: Pick<DriveOutcome, 'events'>, stop: SeenStop): EventEnvelope[] {
  const matched = outcome.events.filter(
    (e) => e.type === 'fueling.matched' && e.data.station_id === stop.stationId,
  );
  const matchedFills = new Set(matched.map((e) => e.data.fueling_id));
  const atStation = (e: EventEnvelope) => {
    const station = e.data.station as { id?: string } | null | undefined;
    return e.data.stop_id === stop.id || station?.id === stop.stationId;
  };
  return outcome.events.filter((e) => {
    if (e.type === 'fueling.matched') return e.data.station_id === stop.stationId;
    if (e.type === 'fueling.recorded') return matchedFills.size === 0 || matchedFills.has(e.data.fueling_id);
    if (e.type === 'vehicle.stop_arrived' || e.type === 'vehicle.stop_departed') return atStation(e);
    return false;
  });
}

/** Road miles along the drive's route to where its cross street leaves for `stop`. */
function footMile(outcome: DriveOutcome, stop: SeenStop): number {
  return projectOntoRoute(routeOf(outcome.spec), stop).milesAlongRoute;
}

/**
 * Why a shown stop gave way, in the order it is judged:
 * - `after_fill`: the truck fuelled since the stop was shown: detection recorded a fill after the
 *   stop was shown (the next stop of the plan made before the fill, shown once the truck left the
 *   pumps), or a detected fill ended after the newest breadcrumb the stop was shown on and began by
 *   the one it was withdrawn on. The plan starts afresh from a full tank: the truck is no longer
 *   heading to a stop it does not need;
 * - `unusable`: the stop was skipped, or is out of reach from the level the plan worked from with
 *   GUIDANCE_POLICY.commitmentReserveShare of the reserve left (the commitment rule lets it go);
 * - `far_better_plan`: the stop was still more than GUIDANCE_POLICY.commitmentFarMiles road miles
 *   ahead, where the commitment rule lets a plan better by the published margin (or none) replace it;
 * - `other`: none of these: the commitment rule should have kept it.
 */
export const WITHDRAWAL_CAUSES = ['after_fill', 'unusable', 'far_better_plan', 'other'] as const;
export type WithdrawalCause = (typeof WITHDRAWAL_CAUSES)[number];

export interface Withdrawal {
  /** When the delivery that showed the change was posted. */
  at: number;
  stop: SeenStop;
  cause: WithdrawalCause;
  /** Road miles from the truck (its newest breadcrumb's truth) to where it would leave for the stop. */
  milesAhead: number;
  /** The fuel level the plan worked from when it withdrew the stop. */
  fuelPercent: number | null;
  /** What replaced it: another stop, or none. */
  replacedBy: SeenStop | null;
}

/** Start times (recorded) and end times of the fills detection recorded for the truck. */
function detectedFills(outcome: Pick<DriveOutcome, 'events'>): { startedMs: number; endedMs: number }[] {
  return outcome.events
    .filter((e) => e.type === 'fueling.recorded')
    .map((e) => {
      const endedMs = Date.parse(String(e.data.fueled_at));
      const started = e.data.started_at;
      return { startedMs: typeof started === 'string' ? Date.parse(started) : endedMs, endedMs };
    });
}

/** Straight-line miles from the stop's foot on the route to the station: its one-way detour. */
function oneWayMiles(outcome: DriveOutcome, stop: SeenStop): number {
  return projectOntoRoute(routeOf(outcome.spec), stop).offRouteMiles;
}

/**
 * Each time the stop a truck was shown first (stops[0]) gave way to another, or to none, while the
 * session was active and the truck, by its newest breadcrumb, was still short of that stop's exit,
 * with its cause. Those not `after_fill` are shown stops withdrawn while the truck heads to them.
 */
export function shownStopWithdrawals(outcome: DriveOutcome): Withdrawal[] {
  const withdrawals: Withdrawal[] = [];
  const fills = detectedFills(outcome);
  const { tankGallons, mpg } = outcome.spec;
  const reserveGallons = DEFAULT_RESERVE_FRACTION * tankGallons * GUIDANCE_POLICY.commitmentReserveShare;
  let shown = outcome.shownAtStart;
  // The recorded time of the newest breadcrumb the API had when `shown` became stops[0].
  let shownSinceMs = outcome.startMs;
  // How many fills detection had recorded when `shown` became stops[0].
  let fillsWhenShown = 0;
  for (const sighting of outcome.sightings) {
    if (!sighting.active) break;
    const now = sighting.first;
    const { latest } = sighting;
    if (shown && now?.stationId !== shown.stationId) {
      const milesAhead = footMile(outcome, shown) - latest.routeMile;
      if (latest.phase !== 'at_station' && milesAhead > 0) {
        const fuelled =
          sighting.fillsDetected > fillsWhenShown ||
          fills.some((f) => f.endedMs > shownSinceMs && f.startedMs <= latest.recordedAtMs);
        const fuelAtStop =
          sighting.fuelPercent === null
            ? Number.POSITIVE_INFINITY
            : (sighting.fuelPercent / 100) * tankGallons - (milesAhead + oneWayMiles(outcome, shown)) / mpg;
        const cause: WithdrawalCause = fuelled
          ? 'after_fill'
          : sighting.skippedStationIds.includes(shown.stationId) || fuelAtStop < reserveGallons
            ? 'unusable'
            : milesAhead > GUIDANCE_POLICY.commitmentFarMiles
              ? 'far_better_plan'
              : 'other';
        withdrawals.push({
          at: sighting.postedAtMs,
          stop: shown,
          cause,
          milesAhead: round1(milesAhead),
          fuelPercent: sighting.fuelPercent,
          replacedBy: now,
        });
      }
    }
    if (now?.stationId !== shown?.stationId) {
      shownSinceMs = latest.recordedAtMs;
      fillsWhenShown = sighting.fillsDetected;
    }
    shown = now;
  }
  return withdrawals;
}

/** guidance.updated events after the one announcing the session, per hour of the drive's recorded time. */
export function updatesPerHour(outcome: DriveOutcome): number {
  const updates = outcome.events.filter((e) => e.type === 'guidance.updated' && e.data.change !== 'created');
  const lastMs = outcome.crumbs.at(-1)?.recordedAtMs ?? outcome.startMs;
  const hours = Math.max(lastMs - outcome.startMs, 60_000) / 3_600_000;
  return updates.length / hours;
}

export interface FleetFigures {
  /** Shown stops withdrawn while the truck headed to them (not after a fill), per 100 drives. */
  guidance_shown_stop_withdrawals_per_100: number;
  /** Of those, stops out of reach or skipped, per 100 drives. */
  guidance_shown_stop_withdrawals_unusable_per_100: number;
  /** Of those, stops more than the commitment distance out, replaced by a better plan (or none). */
  guidance_shown_stop_withdrawals_far_better_plan_per_100: number;
  /** Of those, the rest: the commitment rule should have kept them. */
  guidance_shown_stop_withdrawals_other_per_100: number;
  /** Not counted above: shown stops dropped after the truck fuelled, per 100 drives. */
  guidance_shown_stop_withdrawals_after_fill_per_100: number;
  /** Of the fills at the stop shown when guidance started, the share matched to it (goal 100). */
  guidance_fills_at_shown_stops_matched_percent: number;
  /** guidance.updated per truck-hour, 95th percentile over the drives. */
  guidance_updates_per_truck_hour_p95: number;
  guidance_fleet_drives: number;
  guidance_fleet_fills_at_shown_stops: number;
  /** Worker messages that failed every receive (dead-lettered) over the fleet's drives. */
  guidance_fleet_dead_letters: number;
}

export function fleetFigures(outcomes: readonly DriveOutcome[]): FleetFigures {
  const withdrawals = outcomes.flatMap(shownStopWithdrawals);
  const per100 = (count: number) => round1((count / Math.max(outcomes.length, 1)) * 100);
  const ofCause = (cause: WithdrawalCause) => per100(withdrawals.filter((w) => w.cause === cause).length);
  const fills = outcomes.filter(
    (o) => o.spec.behaviour === 'fuels_at_shown_stop' && drivesToShownStop(o.spec, o.shownAtStart),
  );
  const matched = fills.filter((o) =>
    o.events.some((e) => e.type === 'fueling.matched' && e.data.station_id === o.shownAtStart?.stationId),
  );
  const rates = outcomes.map(updatesPerHour).sort((a, b) => a - b);
  const p95 =
    rates[Math.min(rates.length - 1, Math.max(0, Math.ceil(0.95 * rates.length) - 1))] ?? Number.NaN;
  return {
    guidance_shown_stop_withdrawals_per_100: per100(
      withdrawals.filter((w) => w.cause !== 'after_fill').length,
    ),
    guidance_shown_stop_withdrawals_unusable_per_100: ofCause('unusable'),
    guidance_shown_stop_withdrawals_far_better_plan_per_100: ofCause('far_better_plan'),
    guidance_shown_stop_withdrawals_other_per_100: ofCause('other'),
    guidance_shown_stop_withdrawals_after_fill_per_100: ofCause('after_fill'),
    guidance_fills_at_shown_stops_matched_percent: round1((matched.length / Math.max(fills.length, 1)) * 100),
    guidance_updates_per_truck_hour_p95: round1(p95),
    guidance_fleet_drives: outcomes.length,
    guidance_fleet_fills_at_shown_stops: fills.length,
    guidance_fleet_dead_letters: outcomes.reduce((sum, o) => sum + o.deadLetters.length, 0),
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
