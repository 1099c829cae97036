import { describe, expect, it } from 'vitest';
import {
  type FillPlace,
  inMatchWindow,
  isSameFill,
  matchRecommendation,
  passedOverRecommendation,
  sameFillOf,
  stoodAt,
  unfollowedRecommendation,
  unmatchedReason,
} from '../../../shared/domain/fuelings/matching.ts';
import type { RecommendedStop } from '../../../shared/domain/fuelings/recommendations.ts';

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

describe('a recommendation stands (what a fill elsewhere passed over)', () => {
  it('from 30 minutes before it was made', () => {
    expect(stoodAt(stop(), T0 - 30 * MIN)).toBe(true);
    expect(stoodAt(stop(), T0 - 31 * MIN)).toBe(false);
  });
  it('until 60 minutes after it was withdrawn, and for as long as it stands', () => {
    const withdrawn = stop({ withdrawnAtMs: T0 + 120 * MIN });
    expect(stoodAt(withdrawn, T0 + 180 * MIN)).toBe(true);
    expect(stoodAt(withdrawn, T0 + 181 * MIN)).toBe(false);
    expect(stoodAt(stop(), T0 + 6 * 24 * 60 * MIN)).toBe(true);
  });
});

describe('matching a fill to a recommended stop', () => {
  it('matches within 0.5 mile of the station while it stood', () => {
    const match = matchRecommendation(fill({ latitude: 35 + 0.4 * MILE_DEG }), [stop()]);
    expect(match?.stop.stopId).toBe(stop().stopId);
    expect(match?.distanceMiles).toBeCloseTo(0.4, 2);
  });
  it('does not match 0.6 mile away', () => {
    expect(matchRecommendation(fill({ latitude: 35 + 0.6 * MILE_DEG }), [stop()])).toBeNull();
  });
  it('matches by the station id, even without a position', () => {
    const match = matchRecommendation(
      fill({ stationId: stop().stationId, latitude: null, longitude: null }),
      [stop()],
    );
    expect(match).toEqual({ stop: stop(), distanceMiles: null });
  });
  it('does not match a recommendation shown more than 30 minutes after the fill', () => {
    expect(matchRecommendation(fill({ fueledAtMs: T0 - 30 * MIN }), [stop()])).not.toBeNull();
    expect(matchRecommendation(fill({ fueledAtMs: T0 - 31 * MIN }), [stop()])).toBeNull();
  });
  it("matches a withdrawn recommendation until 6 hours after it was withdrawn, judged on the fill's time", () => {
    const withdrawn = stop({ withdrawnAtMs: T0 + 5 * MIN });
    expect(matchRecommendation(fill({ fueledAtMs: T0 + 6 * 60 * MIN + 5 * MIN }), [withdrawn])?.stop).toEqual(
      withdrawn,
    );
    expect(matchRecommendation(fill({ fueledAtMs: T0 + 6 * 60 * MIN + 6 * MIN }), [withdrawn])).toBeNull();
  });
  it('matches a recommendation still standing however long ago it was shown', () => {
    expect(matchRecommendation(fill({ fueledAtMs: T0 + 3 * 24 * 60 * MIN }), [stop()])).not.toBeNull();
  });
  it("never matches another vehicle's recommendation", () => {
    expect(matchRecommendation(fill({ vehicleId: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1ZZ' }), [stop()])).toBeNull();
  });
  it('prefers the named station over a nearer neighbour at the same interchange', () => {
    const named = stop({ stopId: 'gds_B', stationId: 'stn_B', latitude: 35 + 0.3 * MILE_DEG });
    const nearer = stop({ stopId: 'gds_A', stationId: 'stn_A' });
    expect(matchRecommendation(fill({ stationId: 'stn_B' }), [nearer, named])?.stop.stopId).toBe('gds_B');
    expect(matchRecommendation(fill(), [named, nearer])?.stop.stopId).toBe('gds_A');
  });
  it('never matches a fill that names another station to a recommended one nearby', () => {
    // The card names stn_C, which was not recommended; stn_A, 0.3 mi away, was.
    const nearby = stop({ stationId: 'stn_A', latitude: 35 + 0.3 * MILE_DEG });
    const atOther = fill({ stationId: 'stn_C' });
    expect(matchRecommendation(atOther, [nearby])).toBeNull();
    expect(unmatchedReason(atOther, [nearby])).toBe('not_at_recommended_station');
    // Nor is a fill there at a recommended station outside the window.
    expect(unmatchedReason(atOther, [stop({ stationId: 'stn_A', withdrawnAtMs: T0 - 7 * 60 * MIN })])).toBe(
      'no_guidance',
    );
  });
  it('matches a fill that names no station (a detection) by the radius alone', () => {
    const nearby = stop({ stationId: 'stn_A', latitude: 35 + 0.3 * MILE_DEG });
    expect(matchRecommendation(fill({ stationId: null }), [nearby])?.stop.stationId).toBe('stn_A');
  });
});

describe('the recommendation a fill elsewhere passed over', () => {
  it('is the cheapest one standing at the time', () => {
    const cheap = stop({ stopId: 'gds_cheap', netPrice: 3.2, latitude: 36 });
    const dear = stop({ stopId: 'gds_dear', netPrice: 3.5, latitude: 36.5 });
    const gone = stop({ stopId: 'gds_gone', netPrice: 3.0, withdrawnAtMs: T0 - 120 * MIN });
    expect(passedOverRecommendation(fill(), [dear, cheap, gone], 'pump')?.stopId).toBe('gds_cheap');
    expect(passedOverRecommendation(fill({ fueledAtMs: T0 - 60 * MIN }), [dear, cheap], 'pump')).toBeNull();
  });
  it('is judged on effective prices: a high-tax stop with the lowest pump price is not the cheapest under ifta', () => {
    // Pennsylvania $3.30 net − $0.741 tax = $2.559; Ohio $3.35 net − $0.47 = $2.88 under ifta.
    const pa = stop({
      stopId: 'gds_pa',
      netPrice: 3.3,
      state: 'PA',
      stateTax: 0.741,
      taxTreatment: 'ifta',
      effectivePrice: 2.559,
    });
    const oh = stop({
      stopId: 'gds_oh',
      netPrice: 3.35,
      state: 'OH',
      stateTax: 0.47,
      taxTreatment: 'ifta',
      effectivePrice: 2.88,
    });
    expect(passedOverRecommendation(fill(), [oh, pa], 'ifta')?.stopId).toBe('gds_pa');
    // Indiana $3.40 net ($0.61) against Illinois $3.45 net ($0.74): pump picks Indiana, ifta Illinois.
    const inStop = stop({
      stopId: 'gds_in',
      netPrice: 3.4,
      state: 'IN',
      stateTax: 0.61,
      taxTreatment: 'pump',
      effectivePrice: 3.4,
    });
    const il = stop({
      stopId: 'gds_il',
      netPrice: 3.45,
      state: 'IL',
      stateTax: 0.74,
      taxTreatment: 'pump',
      effectivePrice: 3.45,
    });
    expect(passedOverRecommendation(fill(), [il, inStop], 'pump')?.stopId).toBe('gds_in');
    // Shown under pump, judged for an ifta fill: its net less the credited tax (3.45 − 0.74 = 2.71 < 2.79).
    expect(passedOverRecommendation(fill(), [il, inStop], 'ifta')?.stopId).toBe('gds_il');
  });
  it('is none for a fill whose place is unknown: it may have been made at the stop', () => {
    expect(passedOverRecommendation(fill({ latitude: null, longitude: null }), [stop()], 'pump')).toBeNull();
  });
});

describe('the advice a fill elsewhere did not follow', () => {
  const record = (overrides: Partial<RecommendedStop> & { countedDay?: string | null } = {}) => ({
    ...stop({ sequence: 0 }),
    countedDay: null,
    ...overrides,
  });
  it('is the stop the driver was heading to, standing at the fill', () => {
    const heading = record({ stopId: 'gds_first' });
    const later = record({ stopId: 'gds_second', sequence: 1 });
    expect(unfollowedRecommendation(fill(), [later, heading])?.stopId).toBe('gds_first');
    // Withdrawn after the fill (the plan changed because of it): it still stood then.
    expect(unfollowedRecommendation(fill(), [record({ withdrawnAtMs: T0 + 90 * MIN })])).not.toBeNull();
  });
  it('is none when the stop was counted already, followed, withdrawn before the fill, or shown later', () => {
    expect(unfollowedRecommendation(fill(), [record({ countedDay: '2026-11-10' })])).toBeNull();
    expect(unfollowedRecommendation(fill(), [record({ followedFuelingId: 'fuel_x' })])).toBeNull();
    expect(unfollowedRecommendation(fill(), [record({ withdrawnAtMs: T0 + 30 * MIN })])).toBeNull();
    expect(unfollowedRecommendation(fill({ fueledAtMs: T0 - 31 * MIN }), [record()])).toBeNull();
    expect(unfollowedRecommendation(fill(), [record({ sequence: undefined })])).toBeNull();
    expect(unfollowedRecommendation(fill({ latitude: null, longitude: null }), [record()])).toBeNull();
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
