/**
 * What the simulated fleet's outcomes (harness.ts) say, judged against the generator's truth: the
 * loop events of each drive and the fleet figures `npm run bench` prints.
 */
import { projectOntoRoute } from '../../../shared/geo/route-projection.ts';
import type { EventEnvelope } from '../../../shared/store/events.ts';
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
 * Each time the stop a truck was shown first (stops[0]) gave way to another, or to none, while the
 * session was active and the truck, by its newest breadcrumb, was still short of that stop's exit:
 * a shown stop withdrawn while the truck heads to it.
 */
export function shownStopWithdrawals(outcome: DriveOutcome): { at: number; stop: SeenStop }[] {
  const withdrawals: { at: number; stop: SeenStop }[] = [];
  let shown = outcome.shownAtStart;
  for (const sighting of outcome.sightings) {
    if (!sighting.active) break;
    const now = sighting.first;
    if (shown && now?.stationId !== shown.stationId) {
      const onTheWay =
        sighting.latest.phase !== 'at_station' && sighting.latest.routeMile < footMile(outcome, shown);
      if (onTheWay) withdrawals.push({ at: sighting.postedAtMs, stop: shown });
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
  /** Shown stops withdrawn while the truck headed to them, per 100 drives. */
  guidance_shown_stop_withdrawals_per_100: number;
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
  const withdrawals = outcomes.reduce((sum, o) => sum + shownStopWithdrawals(o).length, 0);
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
    guidance_shown_stop_withdrawals_per_100: round1((withdrawals / Math.max(outcomes.length, 1)) * 100),
    guidance_fills_at_shown_stops_matched_percent: round1((matched.length / Math.max(fills.length, 1)) * 100),
    guidance_updates_per_truck_hour_p95: round1(p95),
    guidance_fleet_drives: outcomes.length,
    guidance_fleet_fills_at_shown_stops: fills.length,
    guidance_fleet_dead_letters: outcomes.reduce((sum, o) => sum + o.deadLetters.length, 0),
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
