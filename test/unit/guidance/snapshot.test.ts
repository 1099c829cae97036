import { describe, expect, it } from 'vitest';
import { snapshotOf } from '../../../shared/domain/guidance/snapshot.ts';
import type { LatestPosition } from '../../../shared/domain/telematics/positions.ts';
import { advanceTracker, initialTrackerState } from '../../../shared/domain/telematics/tracker.ts';

const T0 = Date.UTC(2026, 10, 21, 18, 0, 0);
const vehicle = { id: 'veh_1', tankSizeGallons: 150, estimatedMpg: 6.5 };
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
    expect(snapshotOf(vehicle, initialTrackerState(), latestAt(T0, 352)).headingDegrees).toBe(352);
  });

  it('is the latest position’s when detection consumed that very breadcrumb', () => {
    expect(snapshotOf(vehicle, trackerAt(T0), latestAt(T0, 352)).headingDegrees).toBe(352);
  });

  it('is unknown when the snapshot stands at another breadcrumb than the latest position', () => {
    expect(snapshotOf(vehicle, trackerAt(T0 + 60_000), latestAt(T0, 352)).headingDegrees).toBeNull();
  });

  it('is unknown for a truck standing still, and without any position', () => {
    expect(snapshotOf(vehicle, initialTrackerState(), latestAt(T0, null)).headingDegrees).toBeNull();
    expect(snapshotOf(vehicle, initialTrackerState(), null).headingDegrees).toBeNull();
  });
});
