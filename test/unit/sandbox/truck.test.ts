import { describe, expect, it } from 'vitest';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { simRoute } from '#shared/sandbox/domain/demo-routes.ts';
import { cityOf, profileOf, TRUCK_PROFILES } from '#shared/sandbox/domain/profiles.ts';
import { LOW_FUEL_SCENARIO_PERCENT, OFFLINE_SCENARIO_MINUTES } from '#shared/sandbox/domain/scenarios.ts';
import { initialTrucks, seedOf } from '#shared/sandbox/domain/simulation.ts';
import {
  fuelPercentOf,
  initialTruck,
  SIM_PHYSICS,
  type SimBreadcrumb,
  type SimTruck,
  type StopAhead,
  stepTruck,
  truckState,
} from '#shared/sandbox/domain/truck.ts';

const T0 = Date.parse('2026-11-23T12:00:00Z');
const ids = (ref: string) => ({ vehicleId: `veh_${ref}`, externalRef: ref, name: ref });
const sleeper = (seed = 1) => initialTruck(profileOf('long_haul_sleeper'), ids('sim-1'), seed, T0);

/** Runs `minutes` minutes from `truck`; the stop (if any) is what guidance would say each minute. */
function run(truck: SimTruck, minutes: number, stop: StopAhead | null = null) {
  const trucks: SimTruck[] = [];
  const crumbs: (SimBreadcrumb | null)[] = [];
  let current = truck;
  for (let minute = 1; minute <= minutes; minute++) {
    const stepped = stepTruck(current, T0 + minute * 60_000, stop);
    current = stepped.truck;
    trucks.push(current);
    crumbs.push(stepped.breadcrumb);
  }
  return { truck: current, trucks, crumbs };
}

describe('the simulated trucks', () => {
  it('are three distinct profiles, the reefer starting low, each with a tank and an mpg', () => {
    expect(TRUCK_PROFILES.map((p) => p.id)).toEqual([
      'long_haul_sleeper',
      'regional_day_cab',
      'reefer_low_fuel',
    ]);
    const trucks = initialTrucks(
      'flt_x',
      TRUCK_PROFILES.map((_, i) => ({ vehicleId: `veh_${i}`, name: `t${i}` })),
      T0,
    );
    expect(trucks.map((t) => t.externalRef)).toEqual(['sim-1', 'sim-2', 'sim-3']);
    expect(fuelPercentOf(trucks[2] as SimTruck)).toBeLessThan(30);
    expect(new Set(trucks.map((t) => t.destinationCityId)).size).toBeGreaterThan(1);
  });

  it('start parked at home with their starting fuel, reporting that standing start, then drive off', () => {
    const vehicles = TRUCK_PROFILES.map((_, i) => ({ vehicleId: `veh_${i}`, name: `t${i}` }));
    const trucks = initialTrucks('flt_x', vehicles, T0);
    for (const [index, truck] of trucks.entries()) {
      const profile = TRUCK_PROFILES[index] as (typeof TRUCK_PROFILES)[number];
      const home = cityOf(profile.homeCityId);
      expect(truck).toMatchObject({ scenario: 'normal', pendingScenario: null, speedMph: 0 });
      expect(truckState(truck)).toBe('parked');
      expect(fuelPercentOf(truck)).toBeCloseTo(profile.startFuelPercent, 9);
      expect(truck.lastReport).toEqual({
        latitude: Math.round(home.latitude * 1e5) / 1e5,
        longitude: Math.round(home.longitude * 1e5) / 1e5,
        headingDegrees: truck.headingDegrees,
        speedMph: 0,
        recordedAtMs: T0,
        fuelLevelPercent: profile.startFuelPercent,
      });
      // It faces the road it takes: the first minute's heading is within a few degrees.
      const first = run(truck, 1).truck;
      expect(truckState(first)).toBe('driving');
      const turn = Math.abs(((first.headingDegrees - truck.headingDegrees + 540) % 360) - 180);
      expect(turn).toBeLessThan(30);
    }
    // The same twin at another moment: the same trucks but for the report's time.
    const later = initialTrucks('flt_x', vehicles, T0 + 3_600_000);
    const withoutTime = (t: SimTruck) => ({ ...t, lastReport: { ...t.lastReport, recordedAtMs: 0 } });
    expect(later.map(withoutTime)).toEqual(trucks.map(withoutTime));
  });

  it('are deterministic: the same seed drives the same day, another seed another one', () => {
    const a = run(sleeper(7), 600).crumbs;
    const b = run(sleeper(7), 600).crumbs;
    const c = run(sleeper(seedOf('another twin')), 600).crumbs;
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});

describe('driving physics', () => {
  it('ramps speed by at most 20 mph a minute, cruises near the profile speed, and slows near the ends', () => {
    const { trucks } = run(sleeper(), 240);
    const speeds = trucks.map((t) => t.speedMph);
    for (let i = 1; i < speeds.length; i++) {
      expect(Math.abs((speeds[i] as number) - (speeds[i - 1] as number))).toBeLessThanOrEqual(
        SIM_PHYSICS.maxSpeedChangeMphPerMinute + 1e-9,
      );
    }
    const cruise = profileOf('long_haul_sleeper').cruiseMph;
    expect(Math.max(...speeds)).toBeLessThanOrEqual(cruise + SIM_PHYSICS.cruiseJitterMph);
    expect(speeds.slice(30, 200).every((s) => s > cruise - SIM_PHYSICS.cruiseJitterMph - 1)).toBe(true);
    // Leaving the city: the first minutes stay at city speed.
    expect(speeds[0]).toBeLessThanOrEqual(SIM_PHYSICS.slowZoneMph);
  });

  it('moves along its route at its speed and burns fuel by its mpg', () => {
    const start = sleeper();
    const { truck, crumbs } = run(start, 120);
    const miles = truck.leg.milesAlong - start.leg.milesAlong;
    expect(miles).toBeGreaterThan(100);
    expect(start.fuelGallons - truck.fuelGallons).toBeCloseTo(miles / profileOf('long_haul_sleeper').mpg, 6);
    for (let i = 1; i < crumbs.length; i++) {
      const step = haversineMiles(crumbs[i - 1] as SimBreadcrumb, crumbs[i] as SimBreadcrumb);
      // Never faster than the truck drives (great-circle steps only cut the road's corners).
      expect(step).toBeLessThanOrEqual((profileOf('long_haul_sleeper').cruiseMph + 5) / 60);
    }
  });

  it('rests 30 minutes at its destination, then heads for another city', () => {
    const start = initialTruck(profileOf('regional_day_cab'), ids('sim-2'), 3, T0);
    const { trucks } = run(start, 8 * 60);
    const arrival = trucks.findIndex((t) => t.destinationCityId !== start.destinationCityId);
    expect(arrival).toBeGreaterThan(0);
    const rest = trucks.slice(arrival, arrival + SIM_PHYSICS.destinationDwellMinutes - 1);
    expect(rest.every((t) => truckState(t) === 'resting' && t.speedMph === 0)).toBe(true);
    expect(trucks[arrival + SIM_PHYSICS.destinationDwellMinutes]?.activity).toBe('driving');
    expect(trucks[arrival]?.destinationCityId).not.toBe(start.destinationCityId);
  });

  it('takes its 30-minute break after 8 hours of driving', () => {
    const { trucks } = run(
      { ...sleeper(), drivingMinutesSinceBreak: SIM_PHYSICS.drivingMinutesBeforeBreak - 1 },
      40,
    );
    expect(trucks[0]?.activity).toBe('driving');
    expect(trucks.slice(1, SIM_PHYSICS.breakMinutes).every((t) => t.activity === 'resting')).toBe(true);
    expect(trucks[SIM_PHYSICS.breakMinutes + 1]?.activity).toBe('driving');
  });
});

/** A station just ahead on the truck's route. */
function stationAhead(truck: SimTruck, milesAhead: number): StopAhead {
  const route = simRoute(truck.leg.origin, truck.leg.destination);
  return {
    stationId: 'stn_test',
    name: 'Test Stop',
    ...pointAtMiles(route.line, truck.leg.milesAlong + milesAhead),
  };
}

describe('following guidance', () => {
  it('drives to the recommended stop, waits, fills to 95 % with a flat reading after, and carries on', () => {
    const start = run(initialTruck(profileOf('reefer_low_fuel'), ids('sim-3'), 5, T0), 20).truck;
    const stop = stationAhead(start, 25);
    const { trucks, crumbs } = run(start, 60, stop);
    const arrived = trucks.findIndex((t) => t.activity === 'fueling');
    expect(arrived).toBeGreaterThan(0);
    expect(haversineMiles((trucks[arrived] as SimTruck).position, stop)).toBeLessThan(0.01);
    const fueling = trucks.filter((t) => t.activity === 'fueling');
    expect(fueling.every((t) => t.speedMph === 0)).toBe(true);
    expect(fuelPercentOf(fueling.at(-1) as SimTruck)).toBeCloseTo(SIM_PHYSICS.fillToPercent, 5);
    // The sensor at rest: the readings after the fill lie within a point of each other (a plateau).
    const last = arrived + fueling.length;
    const after = crumbs
      .slice(last - SIM_PHYSICS.afterFillMinutes, last)
      .map((c) => c?.fuelLevelPercent as number);
    expect(Math.max(...after) - Math.min(...after)).toBeLessThanOrEqual(2 * SIM_PHYSICS.sloshAtRest);
    const back = trucks[last] as SimTruck;
    expect(back.activity).toBe('driving');
    expect(back.lastFueledStationId).toBe('stn_test');
    expect(back.leg.stationId).toBeNull();
    // The same stop, still listed by a worker that has not caught up, is not followed twice.
    expect(run(back, 30, stop).trucks.every((t) => t.activity === 'driving')).toBe(true);
  });
});

describe('scenarios', () => {
  it('low_fuel drops the tank to 14 % on the next minute', () => {
    const { truck } = run({ ...sleeper(), pendingScenario: 'low_fuel' }, 1);
    expect(truck.scenario).toBe('low_fuel');
    expect(truck.pendingScenario).toBeNull();
    expect(fuelPercentOf(truck)).toBeLessThanOrEqual(LOW_FUEL_SCENARIO_PERCENT);
  });

  it('offline stays silent for 30 minutes while driving on, then reports again as normal', () => {
    const { trucks, crumbs } = run(
      { ...sleeper(), pendingScenario: 'offline' },
      OFFLINE_SCENARIO_MINUTES + 5,
    );
    expect(crumbs.slice(0, OFFLINE_SCENARIO_MINUTES).every((c) => c === null)).toBe(true);
    expect(truckState(trucks[0] as SimTruck)).toBe('offline');
    expect(trucks[OFFLINE_SCENARIO_MINUTES - 1]?.leg.milesAlong).toBeGreaterThan(20);
    expect(crumbs.slice(OFFLINE_SCENARIO_MINUTES).every((c) => c !== null)).toBe(true);
    expect(trucks.at(-1)?.scenario).toBe('normal');
  });

  it('no_fuel_sensor reports breadcrumbs without a level', () => {
    const { crumbs } = run({ ...sleeper(), pendingScenario: 'no_fuel_sensor' }, 10);
    expect(crumbs.every((c) => c !== null && c.fuelLevelPercent === null)).toBe(true);
  });

  it('sensor_noise sloshes far more than the normal sensor while moving', () => {
    const spread = (scenario: 'normal' | 'sensor_noise') => {
      const { trucks, crumbs } = run({ ...sleeper(), pendingScenario: scenario }, 120);
      return Math.max(
        ...crumbs.map((c, i) =>
          Math.abs((c?.fuelLevelPercent as number) - fuelPercentOf(trucks[i] as SimTruck)),
        ),
      );
    };
    expect(spread('normal')).toBeLessThanOrEqual(SIM_PHYSICS.sloshMoving + 0.05);
    expect(spread('sensor_noise')).toBeGreaterThan(SIM_PHYSICS.sloshMoving * 2);
    expect(spread('sensor_noise')).toBeLessThanOrEqual(SIM_PHYSICS.noisySloshMoving + 0.05);
  });

  it('skips_recommendations passes the recommended stop and fills up elsewhere below 30 %', () => {
    const low = { ...run(initialTruck(profileOf('reefer_low_fuel'), ids('sim-3'), 5, T0), 20).truck };
    const stop = stationAhead(low, 25);
    const { trucks } = run({ ...low, pendingScenario: 'skips_recommendations' }, 60, stop);
    expect(trucks.every((t) => t.leg.stationId !== 'stn_test')).toBe(true);
    const fueling = trucks.find((t) => t.activity === 'fueling') as SimTruck;
    expect(fueling).toBeDefined();
    expect(haversineMiles(fueling.position, stop)).toBeGreaterThan(SIM_PHYSICS.skipperAvoidStopMiles);
  });
});
