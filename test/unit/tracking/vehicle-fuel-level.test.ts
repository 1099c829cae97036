import { describe, expect, it } from 'vitest';
import { endSession, startSession } from '#shared/guidance/domain/session.ts';
import { DETECTION_POLICY } from '#shared/tracking/domain/policy.ts';
import { advanceTracker, initialTrackerState, type TrackerState } from '#shared/tracking/domain/tracker.ts';
import { emptyTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { vehicleFuelLevel } from '#shared/tracking/usecases/vehicle-fuel-level.ts';
import { Breadcrumbs, contextWith, ORIGIN } from './breadcrumbs.ts';

const FLEET = 'fleet_1';
const vehicle = { id: 'veh_1', tankSizeGallons: 150, estimatedMpg: 6 };

/** The level a trip or a route planned now would work from, with the tracking item given. */
function levelWith(tracker: TrackerState, session: ReturnType<typeof startSession> | null) {
  return vehicleFuelLevel(
    {
      positions: { recent: async () => null },
      tracking: { get: async () => ({ ...emptyTracking(FLEET, vehicle.id), tracker, session }) },
    },
    FLEET,
    vehicle,
    100,
    0,
  );
}

describe('vehicleFuelLevel for a truck without a fuel sensor', () => {
  // 10 miles to where guidance anchored its assumption, then 600 more without a level.
  const route = new Breadcrumbs(ORIGIN).drive({ minutes: 610, speedMph: 60, everyMinutes: 10 });
  const atAnchor = advanceTracker(initialTrackerState(), route.fixes.slice(0, 2), contextWith()).state;
  const now = advanceTracker(atAnchor, route.fixes.slice(2), contextWith()).state;
  const session = {
    ...startSession({
      id: 'gdn_1',
      vehicleId: vehicle.id,
      destination: { latitude: 40, longitude: -100, name: null },
      minArrivalFuelPercent: 15,
      nowMs: 0,
    }),
    fuelAssumption: { percent: 100, atMs: 0, odometerMiles: atAnchor.odometerMiles ?? 0 },
  };

  it("works from the active guidance session's anchored assumption, burned down by the miles since", async () => {
    // Act
    const { fuel } = await levelWith(now, session);

    // Assess: the miles since the anchor × the road factor at 6 mpg of 150 gal.
    const miles = (now.odometerMiles ?? 0) - (atAnchor.odometerMiles ?? 0);
    const roadMiles = miles * DETECTION_POLICY.roadFactor;
    expect(miles).toBeGreaterThan(580);
    expect(fuel.source).toBe('assumed');
    expect(fuel.percent).toBeCloseTo(100 - (roadMiles / 6 / 150) * 100, 0);
    expect(fuel.percent).toBeLessThan(30);
  });

  it("assumes the fleet's level where the truck is now without an active session, or before its first plan", async () => {
    // Act
    const levels = await Promise.all([
      levelWith(now, null),
      levelWith(now, endSession(session, 'caller_cancelled', 1)),
      levelWith(now, { ...session, fuelAssumption: { percent: 100, atMs: 0, odometerMiles: null } }),
    ]);

    // Assess
    expect(levels.map(({ fuel }) => [fuel.source, fuel.percent])).toEqual([
      ['assumed', 100],
      ['assumed', 100],
      ['assumed', 100],
    ]);
  });
});
