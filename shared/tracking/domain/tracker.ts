/**
 * Per-vehicle detection over breadcrumbs: arrivals at and departures from watched stops,
 * fuelings and low fuel. Pure: the worker loads the state, feeds the new fixes in, stores the
 * state it gets back and turns the detections into webhook events.
 *
 * Each fix is processed on its own against the state, so the detections depend only on the
 * sequence of fixes (and the context), never on how it was split into batches; fixes at or
 * before `processedThroughMs` are skipped, so a redelivered batch changes nothing.
 */
import { haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { stepVisit } from './dwell.ts';
import { appendReading, fuelLowStep, medianLevel } from './fuel-signal.ts';
import { stepEpisode } from './fueling.ts';
import { isStationary, isUsableFix, normalizeFix } from './motion.ts';
import { DETECTION_POLICY } from './policy.ts';
import type { Detection, TrackerContext, TrackerFix, TrackerState, WatchedStop } from './types.ts';

export { DETECTION_POLICY, type DetectionPolicy } from './policy.ts';
export type { Detection, TrackerContext, TrackerFix, TrackerState, WatchedStop } from './types.ts';

export function initialTrackerState(): TrackerState {
  return {
    version: 1,
    processedThroughMs: null,
    lastFix: null,
    recentLevels: [],
    lastReport: null,
    odometerMiles: 0,
    // Armed from the start: a vehicle whose first reading is already low is told once.
    fuelLowArmed: true,
    episode: null,
    visit: null,
  };
}

/**
 * Consumes the fixes newer than `state.processedThroughMs` (in recorded order; older, equal and
 * malformed ones are skipped) and returns the new state with what happened, in the order the
 * fixes revealed it. The input state is not modified.
 */
export function advanceTracker(
  state: TrackerState,
  fixes: readonly TrackerFix[],
  context: TrackerContext,
): { state: TrackerState; detections: Detection[] } {
  const fresh = fixes
    .filter((fix) => isUsableFix(fix) && isNewerThan(fix, state.processedThroughMs))
    .sort((a, b) => a.recordedAtMs - b.recordedAtMs);
  let current: TrackerState = { ...state };
  const detections: Detection[] = [];
  for (const fix of fresh) {
    // Two fixes with the same timestamp: the first one wins, as it would across batches.
    if (!isNewerThan(fix, current.processedThroughMs)) continue;
    const step = consumeFix(current, normalizeFix(fix), context);
    current = step.state;
    detections.push(...step.detections);
  }
  return { state: current, detections };
}

/** The watched stop the vehicle is dwelling at now (arrived, not departed), else null. */
export function currentStop(state: TrackerState): WatchedStop | null {
  return state.visit?.phase === 'arrived' ? { ...state.visit.stop } : null;
}

/** The last consumed fix (the vehicle's position for callers), else null. */
export function lastFix(state: TrackerState): TrackerFix | null {
  return state.lastFix === null ? null : { ...state.lastFix };
}

function isNewerThan(fix: TrackerFix, processedThroughMs: number | null): boolean {
  return processedThroughMs === null || fix.recordedAtMs > processedThroughMs;
}

/**
 * One fix through every detector. A fix's detections come out as: fueling (whose episode ends
 * or plateaus here), departure or arrival, fuel low.
 */
function consumeFix(
  state: TrackerState,
  fix: TrackerFix,
  context: TrackerContext,
): { state: TrackerState; detections: Detection[] } {
  const previous = state.lastFix;
  const stepMiles = previous === null ? 0 : haversineMiles(previous, fix);
  const stationary = isStationary(fix, previous);
  const detections: Detection[] = [];

  const reading =
    fix.fuelLevelPercent === null ? null : { atMs: fix.recordedAtMs, percent: fix.fuelLevelPercent };
  const recentLevels =
    reading === null
      ? state.recentLevels
      : appendReading(state.recentLevels, reading, DETECTION_POLICY.smoothingReadings);

  const episodeStep = stepEpisode(state.episode, fix, stationary, recentLevels, context.tankGallons);
  const visitStep = stepVisit(state.visit, fix, stationary, context.watchedStops);
  detections.push(...episodeStep.detections, ...visitStep.detections);

  let { lastReport, fuelLowArmed } = state;
  const smoothed = medianLevel(recentLevels);
  if (reading !== null && smoothed !== null) {
    lastReport = { percent: smoothed, atMs: fix.recordedAtMs, greatCircleMilesSince: 0 };
    const alarm = fuelLowStep(fuelLowArmed, smoothed);
    fuelLowArmed = alarm.armed;
    if (alarm.fired) {
      detections.push({
        kind: 'fuel_low',
        atMs: fix.recordedAtMs,
        fuelLevelPercent: roundToTenth(smoothed),
        thresholdPercent: DETECTION_POLICY.fuelLowThresholdPercent,
        latitude: fix.latitude,
        longitude: fix.longitude,
      });
    }
  } else if (lastReport !== null && previous !== null) {
    lastReport = {
      ...lastReport,
      greatCircleMilesSince: lastReport.greatCircleMilesSince + stepMiles,
    };
  }

  return {
    state: {
      version: 1,
      processedThroughMs: fix.recordedAtMs,
      lastFix: fix,
      recentLevels,
      lastReport,
      odometerMiles: (state.odometerMiles ?? 0) + stepMiles,
      fuelLowArmed,
      episode: episodeStep.episode,
      visit: visitStep.visit,
    },
    detections,
  };
}
