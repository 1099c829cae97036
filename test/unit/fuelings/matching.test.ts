import { describe, expect, it } from 'vitest';
import {
  countsUnfollowed,
  type FillPlace,
  headingRecommendation,
  headingSince,
  inMatchWindow,
  isSameFill,
  matchRecommendation,
  sameFillOf,
  standingFor,
  unmatchedReason,
} from '#shared/fuelings/domain/matching.ts';
import type { RecommendedStop } from '#shared/fuelings/domain/recommendations.ts';

const T0 = Date.UTC(2026, 10, 10, 12, 0, 0);
const MIN = 60_000;
const VEHICLE = 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4';
// One degree of latitude is 69.09 miles on the haversine sphere used here: 0.4 mi ≈ 0.00579°.
const MILE_DEG = 1 / 69.09;

function stop(overrides: Partial<RecommendedStop> = {}): RecommendedStop {
  return {
    vehicleId: VEHICLE,
    guidanceId: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1W5',
    tripId: null,
    stopId: 'gds_01JD7ZK3M4N5P6Q7R8S9T0V1W6',
    tripStopId: null,
    stationId: 'stn_AAAAAAAAAAAAAAAAAAAAAAAAAA',
    stationName: "Love's #1",
    latitude: 35,
    longitude: -97,
    netPrice: 3.4,
    gallonsToBuy: 100,
    recommendedAtMs: T0,
    withdrawnAtMs: null,
    due: false,
    followedFuelingId: null,
    ...overrides,
  };
}

function fill(overrides: Partial<FillPlace> = {}): FillPlace {
  return {
    vehicleId: VEHICLE,
    fueledAtMs: T0 + 60 * MIN,
    stationId: null,
    latitude: 35,
    longitude: -97,
    ...overrides,
  };
}

describe('a recommendation is within the match window of a fill', () => {
  it('shown at most 30 minutes after the fill, standing at some moment of the 6 hours before it', () => {
    expect(inMatchWindow(stop(), T0 - 30 * MIN)).toBe(true);
    expect(inMatchWindow(stop(), T0 - 31 * MIN)).toBe(false);
    expect(inMatchWindow(stop({ withdrawnAtMs: T0 + 60 * MIN }), T0 + 420 * MIN)).toBe(true);
    expect(inMatchWindow(stop({ withdrawnAtMs: T0 + 60 * MIN }), T0 + 421 * MIN)).toBe(false);
  });
});

describe('why a fill matched nothing', () => {
  it('no recommendation stood in the window: no_guidance', () => {
    expect(unmatchedReason(fill({ latitude: 36 }), [])).toBe('no_guidance');
    expect(unmatchedReason(fill({ latitude: 36 }), [stop({ vehicleId: 'veh_other' })])).toBe('no_guidance');
    expect(unmatchedReason(fill({ latitude: 36 }), [stop({ withdrawnAtMs: T0 - 7 * 60 * MIN })])).toBe(
      'no_guidance',
    );
  });
  it('at a recommended station, but outside the window: outside_window', () => {
    const old = stop({ withdrawnAtMs: T0 - 7 * 60 * MIN });
    expect(matchRecommendation(fill(), [old])).toBeNull();
    expect(unmatchedReason(fill(), [old])).toBe('outside_window');
    expect(unmatchedReason(fill({ fueledAtMs: T0 - 60 * MIN }), [stop()])).toBe('outside_window');
  });
  it('recommendations stood, but the fill has neither station nor position: no_position', () => {
    expect(unmatchedReason(fill({ latitude: null, longitude: null }), [stop()])).toBe('no_position');
  });
  it('recommendations stood elsewhere: not_at_recommended_station', () => {
    expect(unmatchedReason(fill({ latitude: 35 + 0.6 * MILE_DEG }), [stop()])).toBe(
      'not_at_recommended_station',
    );
    expect(unmatchedReason(fill({ stationId: 'stn_other', latitude: null, longitude: null }), [stop()])).toBe(
      'not_at_recommended_station',
    );
  });
});

describe('a recommendation stands for a fill elsewhere', () => {
  it('from 30 minutes before it was made, for as long as it stands', () => {
    expect(standingFor(stop(), T0 - 30 * MIN)).toBe(true);
    expect(standingFor(stop(), T0 - 31 * MIN)).toBe(false);
    expect(standingFor(stop(), T0 + 6 * 24 * 60 * MIN)).toBe(true);
  });
  it('until 60 minutes after it was withdrawn (a card is paid after the truck moved on)', () => {
    const passed = stop({ withdrawnAtMs: T0 + 120 * MIN, due: true });
    expect(standingFor(passed, T0 + 180 * MIN)).toBe(true);
    expect(standingFor(passed, T0 + 181 * MIN)).toBe(false);
  });
});

describe('the stop a fill elsewhere is judged against: the one the truck was heading to', () => {
  const first = (overrides: Partial<RecommendedStop> = {}) =>
    stop({ stopId: 'gds_A', sequence: 0, headingSinceMs: T0, latitude: 36, ...overrides });
  const second = (overrides: Partial<RecommendedStop> = {}) =>
    stop({ stopId: 'gds_B', sequence: 1, latitude: 37, ...overrides });

  it('is the first stop while both stand, even when a later one is cheaper', () => {
    // A $3.20 effective, B $3.00: the fill is judged against A, where the truck was heading.
    const a = first({ effectivePrice: 3.2, taxTreatment: 'pump' });
    const b = second({ effectivePrice: 3.0, taxTreatment: 'pump' });
    expect(headingRecommendation(fill(), [b, a])?.stopId).toBe('gds_A');
  });

  it('is the second stop from when it became first (the first followed and left the plan)', () => {
    const a = first({ withdrawnAtMs: T0 + 60 * MIN, due: true, followedFuelingId: 'fuel_a' });
    const b = second({ headingSinceMs: T0 + 60 * MIN });
    expect(headingRecommendation(fill({ fueledAtMs: T0 + 90 * MIN }), [a, b])?.stopId).toBe('gds_B');
    // Before it became first, the first one (still standing then) is.
    expect(headingRecommendation(fill({ fueledAtMs: T0 + 50 * MIN }), [a, b])?.stopId).toBe('gds_A');
  });

  it('is a stop just passed, for 60 minutes, when no other became first since', () => {
    const a = first({ withdrawnAtMs: T0 + 60 * MIN, due: true });
    expect(headingRecommendation(fill({ fueledAtMs: T0 + 120 * MIN }), [a])?.stopId).toBe('gds_A');
    expect(headingRecommendation(fill({ fueledAtMs: T0 + 121 * MIN }), [a])).toBeNull();
  });

  it('is one that became first within the clock-skew minutes after the fill when none had before', () => {
    const b = second({ headingSinceMs: T0 + 20 * MIN });
    expect(headingRecommendation(fill({ fueledAtMs: T0 }), [b])?.stopId).toBe('gds_B');
    expect(headingRecommendation(fill({ fueledAtMs: T0 - 11 * MIN }), [b])).toBeNull();
  });

  it('is none while only stops further on stood: no_stop_due', () => {
    const b = second();
    expect(headingSince(b)).toBeNull();
    expect(headingRecommendation(fill({ latitude: 38 }), [b])).toBeNull();
    expect(unmatchedReason(fill({ latitude: 38 }), [b])).toBe('no_stop_due');
    // A first stop withdrawn more than the grace before the fill, a second never first: no stop due.
    const replaced = first({ withdrawnAtMs: T0 + 30 * MIN, due: false });
    const later = fill({ latitude: 38, fueledAtMs: T0 + 91 * MIN });
    expect(headingRecommendation(later, [replaced, b])).toBeNull();
    expect(headingRecommendation({ ...later, fueledAtMs: T0 + 90 * MIN }, [replaced, b])?.stopId).toBe(
      'gds_A',
    );
  });

  it('reads a record written before headingSinceMs as heading when it was first shown (sequence 0, or unknown)', () => {
    expect(headingSince(stop({ sequence: 0 }))).toBe(T0);
    expect(headingSince(stop({ sequence: undefined }))).toBe(T0);
    expect(headingSince(stop({ sequence: 2 }))).toBeNull();
    expect(headingSince(stop({ sequence: 2, headingSinceMs: T0 + 5 * MIN }))).toBe(T0 + 5 * MIN);
  });

  it('is none for another vehicle’s stop, one shown later, or a fill whose place is unknown', () => {
    expect(headingRecommendation(fill(), [first({ vehicleId: 'veh_other' })])).toBeNull();
    expect(headingRecommendation(fill({ fueledAtMs: T0 - 31 * MIN }), [first()])).toBeNull();
    expect(headingRecommendation(fill({ latitude: null, longitude: null }), [first()])).toBeNull();
  });

  it('counts the stop unfollowed only when neither counted nor followed yet', () => {
    expect(countsUnfollowed({ countedDay: null, followedFuelingId: null })).toBe(true);
    expect(countsUnfollowed({ countedDay: '2026-11-10', followedFuelingId: null })).toBe(false);
    expect(countsUnfollowed({ countedDay: null, followedFuelingId: 'fuel_x' })).toBe(false);
  });
});

describe('a reported and a detected fill are the same fill', () => {
  const detected = fill();
  it('within 0.5 mile and 60 minutes', () => {
    expect(
      isSameFill(
        detected,
        fill({ fueledAtMs: detected.fueledAtMs + 60 * MIN, latitude: 35 + 0.45 * MILE_DEG }),
      ),
    ).toBe(true);
  });
  it('not 61 minutes apart, nor 0.6 mile apart, nor for another vehicle', () => {
    expect(isSameFill(detected, fill({ fueledAtMs: detected.fueledAtMs - 61 * MIN }))).toBe(false);
    expect(isSameFill(detected, fill({ latitude: 35 + 0.6 * MILE_DEG }))).toBe(false);
    expect(isSameFill(detected, fill({ vehicleId: 'veh_other' }))).toBe(false);
  });
  it('not when either has no position', () => {
    expect(isSameFill(detected, fill({ latitude: null, longitude: null }))).toBe(false);
  });
  it('picks the nearest in time of several', () => {
    const early = { ...fill({ fueledAtMs: T0 + 10 * MIN }), name: 'early' };
    const close = { ...fill({ fueledAtMs: T0 + 50 * MIN }), name: 'close' };
    expect(sameFillOf(fill(), [early, close])?.name).toBe('close');
  });
});
