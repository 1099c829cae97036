import { pointAtMiles } from '#shared/geo/route-line.ts';
import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { bearingDegrees, simRoute } from './demo-routes.ts';
import { type City, type CityId, cityOf, profileOf, type TruckProfile } from './profiles.ts';
import { drawer } from './random.ts';
import { LOW_FUEL_SCENARIO_PERCENT, OFFLINE_SCENARIO_MINUTES, type ScenarioName } from './scenarios.ts';

/**
 * What the snapshot shows; `offline` wins over what the truck is physically doing. `parked`: set
 * to drive but standing still, at the start of a leg (after provisioning or a reset, at home until
 * its first minute; after a rest, until the next one).
 */
export const TRUCK_STATES = ['driving', 'parked', 'fueling', 'resting', 'offline'] as const;
export type TruckState = (typeof TRUCK_STATES)[number];
type Activity = Exclude<TruckState, 'offline'>;

/** The physics, in one place so tests and docs quote the same numbers. */
export const SIM_PHYSICS = Object.freeze({
  /** Speed changes by at most this much per simulated minute (on-ramps, exits, stops). */
  maxSpeedChangeMphPerMinute: 20,
  /** Within this many miles of a leg's ends (cities, ramps to a station) the truck drives slower. */
  slowZoneMiles: 3,
  slowZoneMph: 32,
  /** ± jitter on the cruise speed: traffic. */
  cruiseJitterMph: 3,
  /** Guidance is followed once the recommended station is this close (great-circle miles). */
  divertToStopWithinMiles: 10,
  /** Minutes at the pump before the nozzle goes in (parking, paying). */
  fuelingWaitMinutes: 2,
  pumpGallonsPerMinute: 25,
  /** The truck fills to this share of its tank. */
  fillToPercent: 95,
  /** Minutes still at the pump after the fill, so the sensor shows the new level at rest. */
  afterFillMinutes: 3,
  /** At a destination: unloading and loading. */
  destinationDwellMinutes: 30,
  /** The 30-minute break after 8 hours of driving (hours-of-service). */
  drivingMinutesBeforeBreak: 480,
  breakMinutes: 30,
  /** `skips_recommendations` fills up at whatever stop it passes below this level… */
  skipperFillBelowPercent: 30,
  /** …but never within this distance of the recommended station. */
  skipperAvoidStopMiles: 2,
  /** Any truck without a stop to go to fills up where it is below this level, rather than run dry. */
  emergencyFillBelowPercent: 8,
  /** Tank-sensor slosh, ± points: moving / at rest, normal sensor and the `sensor_noise` one. */
  sloshMoving: 3,
  sloshAtRest: 0.5,
  noisySloshMoving: 9,
  noisySloshAtRest: 1.5,
  /** Slower than this (mph) the sensor reads as at rest. */
  movingAboveMph: 5,
});

/** One leg: from a point to a city or a fuel station, and how far along it the truck is. */
export interface SimLeg {
  origin: GeoPoint;
  destination: GeoPoint & { name: string };
  /** Set when the leg goes to a fuel station (guidance's recommended stop, or the skipper's own). */
  stationId: string | null;
  milesAlong: number;
}

/** What the truck last reported (the snapshot's position and fuel). */
export interface SimReport {
  latitude: number;
  longitude: number;
  headingDegrees: number;
  speedMph: number;
  recordedAtMs: number;
  fuelLevelPercent: number | null;
}

/** A simulated truck, as stored between minutes (plain JSON). */
export interface SimTruck {
  vehicleId: string;
  externalRef: string;
  name: string;
  profileId: TruckProfile['id'];
  scenario: ScenarioName;
  /** Set by POST …/scenario, applied on the next minute. */
  pendingScenario: ScenarioName | null;
  activity: Activity;
  /** Minutes spent in the current fueling or rest. */
  activityMinutes: number;
  restMinutes: number;
  drivingMinutesSinceBreak: number;
  /** Minutes left without reporting (`offline`). */
  silentMinutesLeft: number;
  destinationCityId: CityId;
  leg: SimLeg;
  position: GeoPoint;
  headingDegrees: number;
  speedMph: number;
  fuelGallons: number;
  /** The station it filled at last, so a plan the worker has not updated yet is not followed twice. */
  lastFueledStationId: string | null;
  /** The destination its guidance session was started for (the use case starts one when it differs). */
  guidanceForCityId: CityId | null;
  rng: number;
  lastReport: SimReport | null;
}

/** Guidance's next stop, as the truck sees it. */
export interface StopAhead extends GeoPoint {
  stationId: string;
  name: string;
}

/** A breadcrumb for POST /v1/locations. */
export type SimBreadcrumb = SimReport;

export function truckState(truck: Pick<SimTruck, 'activity' | 'silentMinutesLeft' | 'speedMph'>): TruckState {
  if (truck.silentMinutesLeft > 0) return 'offline';
  return truck.activity === 'driving' && truck.speedMph === 0 ? 'parked' : truck.activity;
}

export function fuelPercentOf(truck: Pick<SimTruck, 'fuelGallons' | 'profileId'>): number {
  return (truck.fuelGallons / profileOf(truck.profileId).tankSizeGallons) * 100;
}

/**
 * A truck as provisioned (and after a reset): parked at its home city with its profile's starting
 * fuel, headed for its first destination. Its report is that standing start as of `startMs` (the
 * simulation clock then), so a snapshot taken before the first minute shows where it is.
 */
export function initialTruck(
  profile: TruckProfile,
  ids: { vehicleId: string; externalRef: string; name: string },
  seed: number,
  startMs: number,
): SimTruck {
  const home = cityOf(profile.homeCityId);
  const random = drawer(seed);
  const first = pickDestination(profile, profile.homeCityId, random.next());
  const leg = cityLeg(home, first);
  // Facing the road out of town: a mile along the leg's route.
  const headingDegrees = Math.round(bearingDegrees(home, pointAtMiles(simRoute(home, first).line, 1)));
  return {
    ...ids,
    profileId: profile.id,
    scenario: 'normal',
    pendingScenario: null,
    activity: 'driving',
    activityMinutes: 0,
    restMinutes: 0,
    drivingMinutesSinceBreak: 0,
    silentMinutesLeft: 0,
    destinationCityId: first.id,
    leg,
    position: { latitude: home.latitude, longitude: home.longitude },
    headingDegrees,
    speedMph: 0,
    fuelGallons: (profile.tankSizeGallons * profile.startFuelPercent) / 100,
    lastFueledStationId: null,
    guidanceForCityId: null,
    rng: random.state,
    lastReport: {
      latitude: round(home.latitude, 5),
      longitude: round(home.longitude, 5),
      headingDegrees,
      speedMph: 0,
      recordedAtMs: startMs,
      fuelLevelPercent: round(profile.startFuelPercent, 1),
    },
  };
}

/**
 * One simulated minute of one truck, ending at `nowMs`: apply a pending scenario, then drive (or
 * fuel, or rest), burn fuel by the profile's mpg, and say what the truck reports, if anything.
 * Pure: the same truck, time and stop give the same result.
 */
export function stepTruck(
  before: SimTruck,
  nowMs: number,
  stopAhead: StopAhead | null,
): { truck: SimTruck; breadcrumb: SimBreadcrumb | null } {
  const profile = profileOf(before.profileId);
  const random = drawer(before.rng);
  let truck = applyScenario(before, profile);

  if (truck.activity === 'fueling') truck = fuelOneMinute(truck, profile);
  else if (truck.activity === 'resting') truck = restOneMinute(truck);
  else truck = driveOneMinute(truck, profile, stopAhead, random.around(1));

  let breadcrumb: SimBreadcrumb | null = null;
  if (truck.silentMinutesLeft > 0) {
    const silentMinutesLeft = truck.silentMinutesLeft - 1;
    // Back from the outage: the next minute reports again, as a normal truck.
    truck = { ...truck, silentMinutesLeft, scenario: silentMinutesLeft === 0 ? 'normal' : truck.scenario };
  } else {
    breadcrumb = {
      latitude: round(truck.position.latitude, 5),
      longitude: round(truck.position.longitude, 5),
      headingDegrees: truck.headingDegrees,
      speedMph: Math.round(truck.speedMph),
      recordedAtMs: nowMs,
      fuelLevelPercent: truck.scenario === 'no_fuel_sensor' ? null : sensorReading(truck, random.around(1)),
    };
  }
  return {
    truck: { ...truck, rng: random.state, lastReport: breadcrumb ?? truck.lastReport },
    breadcrumb,
  };
}

function applyScenario(truck: SimTruck, profile: TruckProfile): SimTruck {
  const scenario = truck.pendingScenario;
  if (scenario === null) return truck;
  const next: SimTruck = { ...truck, scenario, pendingScenario: null };
  if (scenario === 'low_fuel') {
    next.fuelGallons = Math.min(
      truck.fuelGallons,
      (profile.tankSizeGallons * LOW_FUEL_SCENARIO_PERCENT) / 100,
    );
  }
  next.silentMinutesLeft = scenario === 'offline' ? OFFLINE_SCENARIO_MINUTES : 0;
  return next;
}

function fuelOneMinute(truck: SimTruck, profile: TruckProfile): SimTruck {
  const minutes = truck.activityMinutes + 1;
  const full = (profile.tankSizeGallons * SIM_PHYSICS.fillToPercent) / 100;
  if (minutes <= SIM_PHYSICS.fuelingWaitMinutes) return { ...truck, activityMinutes: minutes, speedMph: 0 };
  if (truck.fuelGallons < full) {
    const fuelGallons = Math.min(full, truck.fuelGallons + SIM_PHYSICS.pumpGallonsPerMinute);
    // restMinutes counts the minutes since the pump stopped.
    return { ...truck, activityMinutes: minutes, restMinutes: 0, fuelGallons, speedMph: 0 };
  }
  if (truck.restMinutes + 1 < SIM_PHYSICS.afterFillMinutes) {
    return { ...truck, activityMinutes: minutes, restMinutes: truck.restMinutes + 1, speedMph: 0 };
  }
  // Done: back on the road to the destination, from the station.
  const destination = cityOf(truck.destinationCityId);
  return {
    ...truck,
    activity: 'driving',
    activityMinutes: 0,
    restMinutes: 0,
    lastFueledStationId: truck.leg.stationId ?? truck.lastFueledStationId,
    leg: cityLeg(truck.position, destination),
  };
}

function restOneMinute(truck: SimTruck): SimTruck {
  const minutes = truck.activityMinutes + 1;
  if (minutes < truck.restMinutes) return { ...truck, activityMinutes: minutes, speedMph: 0 };
  return { ...truck, activity: 'driving', activityMinutes: 0, restMinutes: 0, speedMph: 0 };
}

function driveOneMinute(
  start: SimTruck,
  profile: TruckProfile,
  stopAhead: StopAhead | null,
  jitter: number,
): SimTruck {
  const percent = fuelPercentOf(start);
  const onWayToCity = start.leg.stationId === null;
  if (onWayToCity) {
    const follows = start.scenario !== 'skips_recommendations';
    const stop = stopAhead && stopAhead.stationId !== start.lastFueledStationId ? stopAhead : null;
    if (follows && stop && haversineMiles(start.position, stop) <= SIM_PHYSICS.divertToStopWithinMiles) {
      return driveOneMinute({ ...start, leg: stationLeg(start.position, stop) }, profile, stopAhead, jitter);
    }
    const skipperFills =
      !follows &&
      percent < SIM_PHYSICS.skipperFillBelowPercent &&
      (stop === null || haversineMiles(start.position, stop) > SIM_PHYSICS.skipperAvoidStopMiles);
    const runningDry = percent < SIM_PHYSICS.emergencyFillBelowPercent && (stop === null || !follows);
    if (skipperFills || runningDry) return pullOverToFuel(start);
  }
  if (start.drivingMinutesSinceBreak >= SIM_PHYSICS.drivingMinutesBeforeBreak) {
    return rest({ ...start, drivingMinutesSinceBreak: 0 }, SIM_PHYSICS.breakMinutes);
  }

  const route = simRoute(start.leg.origin, start.leg.destination);
  const remaining = Math.max(0, route.miles - start.leg.milesAlong);
  const nearEnd = Math.min(start.leg.milesAlong, remaining) < SIM_PHYSICS.slowZoneMiles;
  const target = nearEnd ? SIM_PHYSICS.slowZoneMph : profile.cruiseMph + jitter * SIM_PHYSICS.cruiseJitterMph;
  const step = SIM_PHYSICS.maxSpeedChangeMphPerMinute;
  const speedMph = Math.max(0, Math.min(start.speedMph + step, Math.max(start.speedMph - step, target)));
  const miles = Math.min(remaining, (start.speedMph + speedMph) / 2 / 60);
  const milesAlong = start.leg.milesAlong + miles;
  const position = pointAtMiles(route.line, milesAlong);
  const moved: SimTruck = {
    ...start,
    speedMph,
    position,
    headingDegrees: miles > 0 ? bearingDegrees(start.position, position) : start.headingDegrees,
    fuelGallons: Math.max(0, start.fuelGallons - miles / profile.mpg),
    leg: { ...start.leg, milesAlong },
    drivingMinutesSinceBreak: start.drivingMinutesSinceBreak + 1,
  };
  if (milesAlong < route.miles) return moved;

  // Arrived at the end of the leg.
  const arrived = { ...moved, speedMph: 0, position: { ...start.leg.destination } };
  if (start.leg.stationId !== null)
    return { ...arrived, activity: 'fueling', activityMinutes: 0, restMinutes: 0 };
  const here = cityOf(start.destinationCityId);
  const next = pickDestination(profile, here.id, (jitter + 1) / 2);
  return rest(
    { ...arrived, destinationCityId: next.id, leg: cityLeg(here, next) },
    SIM_PHYSICS.destinationDwellMinutes,
  );
}

/** A fill at the stop the truck is passing: it pulls off where it is. */
function pullOverToFuel(truck: SimTruck): SimTruck {
  return {
    ...truck,
    activity: 'fueling',
    activityMinutes: 0,
    restMinutes: 0,
    speedMph: 0,
    leg: {
      ...stationLeg(truck.position, { ...truck.position, stationId: '', name: 'roadside' }),
      stationId: null,
    },
  };
}

function rest(truck: SimTruck, minutes: number): SimTruck {
  return { ...truck, activity: 'resting', activityMinutes: 0, restMinutes: minutes, speedMph: 0 };
}

function cityLeg(origin: GeoPoint, city: City): SimLeg {
  return {
    origin: { latitude: origin.latitude, longitude: origin.longitude },
    destination: { name: city.name, latitude: city.latitude, longitude: city.longitude },
    stationId: null,
    milesAlong: 0,
  };
}

function stationLeg(origin: GeoPoint, stop: StopAhead): SimLeg {
  return {
    origin: { latitude: origin.latitude, longitude: origin.longitude },
    destination: { name: stop.name, latitude: stop.latitude, longitude: stop.longitude },
    stationId: stop.stationId,
    milesAlong: 0,
  };
}

/** Another city of the profile's (never the one it is in), chosen by `draw` in [0, 1). */
function pickDestination(profile: TruckProfile, from: CityId, draw: number): City {
  const options = profile.cityIds.filter((id) => id !== from);
  return cityOf(options[Math.min(options.length - 1, Math.floor(draw * options.length))] as CityId);
}

/** The tank sensor: the true level plus slosh, larger while moving and for `sensor_noise`. */
function sensorReading(truck: SimTruck, noise: number): number {
  const moving = truck.speedMph > SIM_PHYSICS.movingAboveMph;
  const noisy = truck.scenario === 'sensor_noise';
  const amplitude = moving
    ? noisy
      ? SIM_PHYSICS.noisySloshMoving
      : SIM_PHYSICS.sloshMoving
    : noisy
      ? SIM_PHYSICS.noisySloshAtRest
      : SIM_PHYSICS.sloshAtRest;
  return round(Math.min(100, Math.max(0, fuelPercentOf(truck) + noise * amplitude)), 1);
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
