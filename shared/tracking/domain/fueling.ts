import { haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { appendReading, medianLevel } from './fuel-signal.ts';
import { DETECTION_POLICY } from './policy.ts';
import type { Detection, LevelReading, StationaryEpisode, TrackerFix } from './types.ts';

type FuelingDetection = Extract<Detection, { kind: 'fueling' }>;

const MS_PER_MINUTE = 60_000;

/**
 * Fueling is read from stationary episodes, not from consecutive readings: the level before is
 * the median of the last few readings up to the episode's start (moving readings slosh, the
 * median ignores the worst), the level after the median of the episode's last few readings (at
 * rest they barely slosh). A rise of `fuelingMinRisePercent` over an episode spanning
 * `fuelingMinStationaryMinutes` is a fueling.
 *
 * It is emitted when the episode ends (the vehicle moves again, or turns up stationary somewhere
 * else), or earlier, while the vehicle is still there, as soon as the after-readings form a
 * plateau; an episode emits at most one fueling either way.
 *
 * `recentLevels` must already include the fix's own reading.
 */
export function stepEpisode(
  episode: StationaryEpisode | null,
  fix: TrackerFix,
  stationary: boolean,
  recentLevels: readonly LevelReading[],
  tankGallons: number | null,
): { episode: StationaryEpisode | null; detections: FuelingDetection[] } {
  const detections: FuelingDetection[] = [];
  let current = episode;
  if (current !== null && (!stationary || !isWithinEpisode(current, fix))) {
    const fueling = current.fuelingReported ? null : fuelingOf(current, tankGallons);
    if (fueling !== null) detections.push(fueling);
    current = null;
  }
  if (!stationary) return { episode: null, detections };

  current = current === null ? startEpisode(fix, recentLevels) : extendEpisode(current, fix, recentLevels);
  if (!current.fuelingReported && fix.fuelLevelPercent !== null && isPlateau(current.stationaryLevels)) {
    const fueling = fuelingOf(current, tankGallons);
    if (fueling !== null) {
      detections.push(fueling);
      current = { ...current, fuelingReported: true };
    }
  }
  return { episode: current, detections };
}

function isWithinEpisode(episode: StationaryEpisode, fix: TrackerFix): boolean {
  return haversineMiles(episode, fix) <= DETECTION_POLICY.episodeRadiusMiles;
}

function startEpisode(fix: TrackerFix, recentLevels: readonly LevelReading[]): StationaryEpisode {
  return {
    startedAtMs: fix.recordedAtMs,
    latitude: fix.latitude,
    longitude: fix.longitude,
    lastStationaryAtMs: fix.recordedAtMs,
    levelBeforePercent: medianLevel(recentLevels),
    stationaryLevels: stationaryReadingsOf([], fix),
    fuelingReported: false,
  };
}

function extendEpisode(
  episode: StationaryEpisode,
  fix: TrackerFix,
  recentLevels: readonly LevelReading[],
): StationaryEpisode {
  return {
    ...episode,
    lastStationaryAtMs: fix.recordedAtMs,
    // A vehicle whose first ever reading comes mid-episode takes its before-level from there.
    levelBeforePercent: episode.levelBeforePercent ?? medianLevel(recentLevels),
    stationaryLevels: stationaryReadingsOf(episode.stationaryLevels, fix),
  };
}

function stationaryReadingsOf(readings: readonly LevelReading[], fix: TrackerFix): LevelReading[] {
  if (fix.fuelLevelPercent === null) return [...readings];
  const reading = { atMs: fix.recordedAtMs, percent: fix.fuelLevelPercent };
  return appendReading(readings, reading, DETECTION_POLICY.afterLevelReadings);
}

function isPlateau(readings: readonly LevelReading[]): boolean {
  if (readings.length < DETECTION_POLICY.afterLevelReadings) return false;
  const levels = readings.map((reading) => reading.percent);
  return Math.max(...levels) - Math.min(...levels) <= DETECTION_POLICY.plateauSpreadPercent;
}

/** The episode's fueling if it qualifies (long enough, enough readings, a large enough rise). */
function fuelingOf(episode: StationaryEpisode, tankGallons: number | null): FuelingDetection | null {
  const before = episode.levelBeforePercent;
  const after = medianLevel(episode.stationaryLevels);
  if (before === null || after === null) return null;
  const spanMs = episode.lastStationaryAtMs - episode.startedAtMs;
  if (spanMs < DETECTION_POLICY.fuelingMinStationaryMinutes * MS_PER_MINUTE) return null;
  if (episode.stationaryLevels.length < DETECTION_POLICY.fuelingMinStationaryReadings) return null;
  const rise = after - before;
  if (rise < DETECTION_POLICY.fuelingMinRisePercent) return null;
  return {
    kind: 'fueling',
    startedAtMs: episode.startedAtMs,
    endedAtMs: episode.lastStationaryAtMs,
    latitude: episode.latitude,
    longitude: episode.longitude,
    levelBeforePercent: roundToTenth(before),
    levelAfterPercent: roundToTenth(after),
    gallons: tankGallons !== null && tankGallons > 0 ? roundToTenth((rise * tankGallons) / 100) : null,
  };
}
