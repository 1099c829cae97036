import { describe, expect, it } from 'vitest';
import { startSession } from '#shared/guidance/domain/session.ts';
import { snapshotOf } from '#shared/guidance/domain/snapshot.ts';
import { DETECTION_POLICY } from '#shared/tracking/domain/policy.ts';
import type { LatestPosition } from '#shared/tracking/domain/positions.ts';
import { advanceTracker, initialTrackerState } from '#shared/tracking/domain/tracker.ts';
import { Breadcrumbs, contextWith, ORIGIN } from '../tracking/breadcrumbs.ts';

const vehicle = { id: 'veh_1', tankSizeGallons: 150, estimatedMpg: 6 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };

const latestOf = (fix: { recordedAtMs: number; latitude: number; longitude: number }): LatestPosition => ({
  ...fix,
  receivedAtMs: fix.recordedAtMs,
  recordedAt: new Date(fix.recordedAtMs).toISOString(),
  fuelLevelPercent: null,
  speedKmh: null,
  headingDegrees: null,
  driverRef: null,
  address: null,
});

describe('the vehicle snapshot of a truck that never reported a fuel level', () => {
  const session = startSession({
    id: 'gd_1',
    vehicleId: 'veh_1',
    destination: DENVER,
    minArrivalFuelPercent: 15,
    assumedDepartureFuelPercent: 60,
    nowMs: 0,
  });
  const drive = new Breadcrumbs(ORIGIN).drive({ minutes: 70, speedMph: 60 }).fixes;

  it("assumes the fleet's level where the first plan finds the truck, and anchors it there", () => {
    const { state } = advanceTracker(initialTrackerState(), drive.slice(0, 10), contextWith());
    const snapshot = snapshotOf(vehicle, state, null, session);
    expect(snapshot.fuel).toEqual({
      percent: 60,
      source: 'assumed',
      reportedAtMs: null,
      asOfMs: drive[9]?.recordedAtMs,
      milesSince: 0,
    });
    expect(snapshot.fuelAssumption).toEqual({
      percent: 60,
      atMs: drive[9]?.recordedAtMs,
      odometerMiles: state.odometerMiles,
    });
  });

  it('burns the fuel for the miles driven since the anchor, counting a latest position not yet consumed', () => {
    const atAnchor = advanceTracker(initialTrackerState(), drive.slice(0, 10), contextWith()).state;
    const anchored = {
      ...session,
      fuelAssumption: snapshotOf(vehicle, atAnchor, null, session).fuelAssumption,
    };
    const consumed = advanceTracker(atAnchor, drive.slice(10, 40), contextWith()).state;
    const last = drive[69] as (typeof drive)[number];

    const snapshot = snapshotOf(vehicle, consumed, latestOf(last), anchored);

    // 60 miles (9 to 69) × road factor ÷ 6 mpg of 150 gal, the last 30 of them a straight line to the latest position.
    const roadMiles = 60 * DETECTION_POLICY.roadFactor;
    expect(snapshot.fuel).toMatchObject({ source: 'assumed', asOfMs: last.recordedAtMs });
    expect(snapshot.fuel?.percent).toBeCloseTo(60 - (roadMiles / 6 / 150) * 100, 0);
    expect(snapshot.fuelAssumption).toEqual(anchored.fuelAssumption);
  });

  it('has no level before the first breadcrumb', () => {
    expect(snapshotOf(vehicle, initialTrackerState(), null, session)).toMatchObject({
      position: null,
      fuel: null,
    });
  });
});

const T0 = Date.UTC(2026, 10, 21, 18, 0, 0);
const sessionStart = { createdAtMs: 0 };
const truck = { id: 'veh_1', tankSizeGallons: 150, estimatedMpg: 6.5 };
const context = { watchedStops: [], tankGallons: 150, mpg: 6.5 };

function latestAt(recordedAtMs: number, travelHeadingDegrees: number | null): LatestPosition {
  return {
    latitude: 32.84,
    longitude: -96.85,
    recordedAtMs,
    recordedAt: new Date(recordedAtMs).toISOString(),
    receivedAtMs: recordedAtMs,
    fuelLevelPercent: 22,
    speedKmh: 96,
    headingDegrees: null,
    travelHeadingDegrees,
    driverRef: null,
    address: null,
  };
}

const trackerAt = (recordedAtMs: number) =>
  advanceTracker(
    initialTrackerState(),
    [{ recordedAtMs, latitude: 32.84, longitude: -96.85, fuelLevelPercent: 22, speedKmh: 96 }],
    context,
  ).state;

describe('snapshotOf: the direction of travel', () => {
  it('is the latest position’s when the snapshot stands where it does (newer than detection’s fix)', () => {
    expect(snapshotOf(truck, initialTrackerState(), latestAt(T0, 352), sessionStart).headingDegrees).toBe(
      352,
    );
  });

  it('is the latest position’s when detection consumed that very breadcrumb', () => {
    expect(snapshotOf(truck, trackerAt(T0), latestAt(T0, 352), sessionStart).headingDegrees).toBe(352);
  });

  it('is unknown when the snapshot stands at another breadcrumb than the latest position', () => {
    expect(
      snapshotOf(truck, trackerAt(T0 + 60_000), latestAt(T0, 352), sessionStart).headingDegrees,
    ).toBeNull();
  });

  it('is unknown for a truck standing still, and without any position', () => {
    expect(
      snapshotOf(truck, initialTrackerState(), latestAt(T0, null), sessionStart).headingDegrees,
    ).toBeNull();
    expect(snapshotOf(truck, initialTrackerState(), null, sessionStart).headingDegrees).toBeNull();
  });
});
