import {
  EARTH_RADIUS_MILES,
  type GeoPoint,
  haversineMiles,
  interpolateGreatCircle,
} from '#shared/kernel/distance.ts';
import { kmhFromMph } from '#shared/tracking/domain/speed.ts';
import type { TrackerContext, TrackerFix, WatchedStop } from '#shared/tracking/domain/tracker.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

export const MINUTE_MS = 60_000;
/** 2026-03-02 08:00 UTC: any fixed instant; the tracker never reads the clock. */
export const T0 = Date.UTC(2026, 2, 2, 8);
const RADIANS = Math.PI / 180;

/** A fix's fuel reading: a constant, none, or one per fix of the leg (0-based index). */
export type LevelScript = number | null | ((index: number) => number | null);

interface LegOptions {
  minutes: number;
  /** Breadcrumb cadence; the leg's first fix comes this long after the previous one. */
  everyMinutes?: number;
  level?: LevelScript;
  /** False sends no speed, as some devices do; stationarity then comes from the distance moved. */
  reportSpeed?: boolean;
}

/**
 * The point `miles` from `from` along the initial bearing (degrees clockwise from north), on the
 * same sphere `haversineMiles` measures, so a leg's length is exact.
 */
export function destination(from: GeoPoint, bearingDegrees: number, miles: number): GeoPoint {
  const angle = miles / EARTH_RADIUS_MILES;
  const bearing = bearingDegrees * RADIANS;
  const lat1 = from.latitude * RADIANS;
  const lon1 = from.longitude * RADIANS;
  const lat2 = Math.asin(
    Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(bearing),
  );
  const lon2 =
    lon1 +
    Math.atan2(
      Math.sin(bearing) * Math.sin(angle) * Math.cos(lat1),
      Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2),
    );
  return { latitude: lat2 / RADIANS, longitude: lon2 / RADIANS };
}

/**
 * A scripted truck: legs of straight driving at a constant speed and of standing still, one
 * breadcrumb per `everyMinutes`, each leg starting where and when the previous one ended.
 */
export class Breadcrumbs {
  readonly fixes: TrackerFix[] = [];
  private here: GeoPoint;
  private nowMs: number;

  constructor(start: GeoPoint, startMs = T0) {
    this.here = { ...start };
    this.nowMs = startMs;
  }

  get position(): GeoPoint {
    return { ...this.here };
  }

  /** Drives along `bearingDegrees` (default due north) at `speedMph`. */
  drive(options: LegOptions & { speedMph: number; bearingDegrees?: number }): this {
    const every = options.everyMinutes ?? 1;
    const stepMiles = (options.speedMph * every) / 60;
    return this.leg(options, options.speedMph, (position) =>
      destination(position, options.bearingDegrees ?? 0, stepMiles),
    );
  }

  /** Drives straight to `target` at `speedMph`; the last fix lies exactly on the target. */
  driveTo(target: GeoPoint, options: Omit<LegOptions, 'minutes'> & { speedMph: number }): this {
    const every = options.everyMinutes ?? 1;
    const from = this.here;
    const miles = haversineMiles(from, target);
    const steps = Math.max(1, Math.ceil(((miles / options.speedMph) * 60) / every));
    let step = 0;
    return this.leg({ ...options, minutes: steps * every }, options.speedMph, () => {
      step += 1;
      return interpolateGreatCircle(from, target, step / steps);
    });
  }

  /** Stands still where it is (speed 0 when speed is reported). */
  park(options: LegOptions): this {
    return this.leg(options, 0, (position) => position);
  }

  private leg(options: LegOptions, speedMph: number, advance: (position: GeoPoint) => GeoPoint): this {
    const every = options.everyMinutes ?? 1;
    const count = Math.round(options.minutes / every);
    const level = options.level ?? null;
    for (let index = 0; index < count; index++) {
      this.here = advance(this.here);
      this.nowMs += every * MINUTE_MS;
      this.fixes.push({
        recordedAtMs: this.nowMs,
        latitude: this.here.latitude,
        longitude: this.here.longitude,
        fuelLevelPercent: typeof level === 'function' ? level(index) : level,
        speedKmh: options.reportSpeed === false ? null : kmhFromMph(speedMph),
      });
    }
    return this;
  }
}

/** Uniform noise in [-amplitude, amplitude]. */
export function slosh(random: () => number, amplitude: number): number {
  return (random() * 2 - 1) * amplitude;
}

/** Joplin, MO, on I-44: somewhere to start from. */
export const ORIGIN: GeoPoint = { latitude: 37.0842, longitude: -94.5133 };

export function watchedStop(stopId: string, at: GeoPoint): WatchedStop {
  return { stopId, stationId: `sta_${stopId}`, name: `Travel center ${stopId}`, ...at };
}

export function contextWith(watchedStops: readonly WatchedStop[] = []): TrackerContext {
  return { watchedStops, tankGallons: 150, mpg: 6 };
}

/**
 * A day with one of everything: a sloshing drive down to a low tank (fuel low), an arrival at
 * a watched stop, a fill there (fueling), a departure, then a drive with the speed missing and a
 * stretch without any fuel readings.
 */
export function aDayOnTheRoad(): { fixes: TrackerFix[]; context: TrackerContext } {
  const random = seededRandom(44);
  const stop = watchedStop('stop_1', destination(ORIGIN, 0, 40));
  const route = new Breadcrumbs(ORIGIN)
    .drive({ minutes: 30, speedMph: 60, level: (i) => 30 - i * 0.4 + slosh(random, 6) })
    .park({ minutes: 2, level: () => 18 + slosh(random, 6) })
    .driveTo(stop, { speedMph: 60, level: (i) => 18 - i * 0.2 + slosh(random, 6) })
    .park({ minutes: 25, level: (i) => (i < 5 ? 17 : Math.min(92, 17 + (i - 4) * 20)) + slosh(random, 1) })
    .drive({ minutes: 20, speedMph: 55, bearingDegrees: 30, level: () => 91 + slosh(random, 6) })
    .drive({ minutes: 20, speedMph: 50, bearingDegrees: 30, reportSpeed: false, everyMinutes: 2 })
    .park({ minutes: 10, reportSpeed: false, everyMinutes: 2 })
    .drive({ minutes: 15, speedMph: 62, bearingDegrees: 90, everyMinutes: 5, level: 86 });
  return { fixes: route.fixes, context: contextWith([stop]) };
}
