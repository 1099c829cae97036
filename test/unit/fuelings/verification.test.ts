import { describe, expect, it } from 'vitest';
import {
  VERIFICATION_POLICY,
  VERIFICATION_REASON_CODES,
  type VerificationBreadcrumb,
  type VerificationInput,
  verifyPurchase,
} from '#shared/fuelings/domain/verification.ts';
import { isAnotherPurchase } from '#shared/fuelings/usecases/purchase-verification.ts';
import { DETECTION_POLICY } from '#shared/tracking/domain/policy.ts';

const T0 = Date.UTC(2026, 10, 10, 12, 0, 0);
const MIN = 60_000;
// One degree of latitude is 69.09 miles on the haversine sphere: a mile north is 1/69.09°.
const MILE_DEG = 1 / 69.09;
const STATION = { latitude: 35, longitude: -97 };

/** A breadcrumb `miles` north of the station, `minutes` from the purchase, with a fuel level or none. */
function crumb(
  minutes: number,
  miles: number,
  fuelLevelPercent: number | null = null,
): VerificationBreadcrumb {
  return {
    recordedAtMs: T0 + minutes * MIN,
    latitude: STATION.latitude + miles * MILE_DEG,
    longitude: STATION.longitude,
    fuelLevelPercent,
  };
}

function input(overrides: Partial<VerificationInput> & { gallons?: number } = {}): VerificationInput {
  const { gallons = 80, ...rest } = overrides;
  return {
    purchase: { fueledAtMs: T0, gallons, station: STATION, position: null },
    tankSizeGallons: 150,
    breadcrumbs: [],
    detectedFills: [],
    ...rest,
  };
}

const codes = (result: ReturnType<typeof verifyPurchase>) => result.reasons.map((reason) => reason.code);

describe('verifyPurchase', () => {
  it('verifies a truck at the pumps whose level rose', () => {
    const result = verifyPurchase(
      input({
        gallons: 85,
        breadcrumbs: [crumb(-20, 3, 20), crumb(-5, 0.05, 22), crumb(5, 0.05, 80), crumb(20, 5, 79)],
      }),
    );
    expect(result.status).toBe('verified');
    expect(codes(result)).toEqual(['at_station', 'level_rose']);
    expect(result.reasons[0]?.detail).toBe(
      'A breadcrumb puts the truck 0.1 mi from the station, 5 min before the purchase (within 0.5 mi).',
    );
    expect(result.reasons[1]?.detail).toBe(
      'The fuel level rose 60 points, from 20 % 20 min before the purchase to 80 % 5 min after the purchase.',
    );
  });

  it('flags a purchase 600 miles from the truck, naming the distance', () => {
    const result = verifyPurchase(input({ breadcrumbs: [crumb(-10, 600), crumb(10, 601)] }));
    expect(result.status).toBe('flagged');
    expect(codes(result)).toEqual(['away_from_station']);
    expect(result.reasons[0]?.detail).toMatch(
      /^The truck was 600 mi from the station, 10 min before the purchase/,
    );
  });

  it("uses the purchase's own coordinates when it names no station", () => {
    const far = input({ breadcrumbs: [crumb(-10, 600)] });
    far.purchase = { ...far.purchase, station: null, position: STATION };
    const result = verifyPurchase(far);
    expect(result.status).toBe('flagged');
    expect(result.reasons[0]?.detail).toContain("600 mi from the purchase's position");
  });

  it('leaves unverified a truck away from the place but near enough to have driven there', () => {
    // 10 mi away 20 minutes before: at 80 mph the truck covers 26.7 mi in that time.
    const result = verifyPurchase(input({ breadcrumbs: [crumb(-20, 10)] }));
    expect(result.status).toBe('unverified');
    expect(codes(result)).toContain('no_breadcrumb_at_station');
  });

  it('flags 180 gallons into a 100-gallon tank', () => {
    const result = verifyPurchase(input({ gallons: 180, tankSizeGallons: 100, breadcrumbs: [crumb(0, 0)] }));
    expect(result.status).toBe('flagged');
    expect(codes(result)).toEqual(['exceeds_tank_size', 'at_station']);
    expect(result.reasons[0]?.detail).toBe("180 gal is more than the vehicle's 100 gal tank.");
  });

  describe('the room in the tank (80 % full of 150 gal: 30 gal of room, 7.5 gal tolerance)', () => {
    const drive = [crumb(-10, 0.1, 80), crumb(0, 0)];

    it('flags 60 gallons', () => {
      const result = verifyPurchase(input({ gallons: 60, breadcrumbs: drive }));
      expect(result.status).toBe('flagged');
      expect(codes(result)).toEqual(['exceeds_room_in_tank', 'at_station']);
      expect(result.reasons[0]?.detail).toBe(
        '60 gal is more than the room in the tank: 80 % full of 150 gal 10 min before the purchase leaves 30 gal, plus a 7.5 gal tolerance (5 % of the tank).',
      );
    });

    it('does not flag 35 gallons (within the tolerance)', () => {
      const result = verifyPurchase(input({ gallons: 35, breadcrumbs: drive }));
      expect(codes(result)).not.toContain('exceeds_room_in_tank');
      expect(result.status).toBe('verified');
    });

    it('flags 38 gallons (just past room plus tolerance, 37.5)', () => {
      expect(codes(verifyPurchase(input({ gallons: 38, breadcrumbs: drive })))).toContain(
        'exceeds_room_in_tank',
      );
    });

    it('takes the level before the pump, not a reading already filled before the payment', () => {
      // Pumped from 20 % between 25 and 3 minutes before paying: the room was 120 gal, not 22.5.
      const result = verifyPurchase(
        input({ gallons: 100, breadcrumbs: [crumb(-25, 0, 20), crumb(-3, 0, 85)] }),
      );
      expect(result.status).toBe('verified');
      expect(codes(result)).toEqual(['at_station', 'level_rose']);
    });

    it('never reads the room from a level reported after the purchase (the tank already filled)', () => {
      // 90 gal from 20 % reads 80 % after: judged from that, the room would be 30 gal and a flag.
      const result = verifyPurchase(input({ gallons: 90, breadcrumbs: [crumb(0, 0), crumb(10, 0.1, 80)] }));
      expect(result.status).toBe('verified');
      expect(codes(result)).toEqual(['at_station']);
    });
  });

  it('flags a truck that reported levels before and after with no rise', () => {
    const result = verifyPurchase(input({ gallons: 80, breadcrumbs: [crumb(-15, 0, 40), crumb(15, 0, 39)] }));
    expect(result.status).toBe('flagged');
    expect(codes(result)).toEqual(['no_level_rise', 'at_station']);
    expect(result.reasons[0]?.detail).toBe(
      '2 readings within 60 min of the purchase rose at most 0 points (10 confirm a fill); 80 gal into a 150 gal tank should have raised it 53.3 points.',
    );
  });

  it('does not flag no rise for a purchase too small to tell from slosh', () => {
    // 10 gal into 150 is 6.7 points: below the 16 a missing rise must hide.
    const result = verifyPurchase(input({ gallons: 10, breadcrumbs: [crumb(-15, 0, 40), crumb(15, 0, 39)] }));
    expect(result.status).toBe('verified');
    expect(codes(result)).toEqual(['at_station']);
  });

  it('does not flag no rise when the tank size is unknown', () => {
    const result = verifyPurchase(
      input({ tankSizeGallons: null, breadcrumbs: [crumb(-15, 0, 40), crumb(15, 0, 39)] }),
    );
    expect(result.status).toBe('verified');
  });

  it('verifies on position alone a truck that reports no fuel levels', () => {
    const result = verifyPurchase(input({ breadcrumbs: [crumb(-10, 0.2), crumb(10, 0.1)] }));
    expect(result.status).toBe('verified');
    expect(codes(result)).toEqual(['at_station']);
  });

  it('confirms the rise from a detected fill', () => {
    const result = verifyPurchase(
      input({ breadcrumbs: [crumb(-5, 0)], detectedFills: [{ fueledAtMs: T0 - 40 * MIN, gallons: 78.5 }] }),
    );
    expect(result.status).toBe('verified');
    expect(result.reasons[1]).toEqual({
      code: 'level_rose',
      detail: 'A fill of 78.5 gal was detected 40 min before the purchase.',
    });
  });

  it('leaves unverified a purchase with no breadcrumbs near its time', () => {
    const result = verifyPurchase(input({ breadcrumbs: [crumb(-180, 0, 20), crumb(180, 0, 90)] }));
    expect(result.status).toBe('unverified');
    expect(codes(result)).toEqual(['no_breadcrumbs_near_time', 'tank_not_checked', 'no_fuel_levels']);
  });

  it('leaves unverified a breadcrumb at the pumps 31 minutes away only, verifies one 30 minutes away', () => {
    const late = verifyPurchase(input({ breadcrumbs: [crumb(31, 0)] }));
    expect(late.status).toBe('unverified');
    expect(codes(late)).toContain('no_breadcrumbs_near_time');
    expect(verifyPurchase(input({ breadcrumbs: [crumb(30, 0)] })).status).toBe('verified');
  });

  it('leaves unverified a purchase with no place at all', () => {
    const nowhere = input({ breadcrumbs: [crumb(0, 0)] });
    nowhere.purchase = { ...nowhere.purchase, station: null, position: null };
    const result = verifyPurchase(nowhere);
    expect(result.status).toBe('unverified');
    expect(codes(result)[0]).toBe('no_place');
  });

  it('publishes every code it can return, and confirms a rise at the detection threshold', () => {
    expect(new Set(VERIFICATION_REASON_CODES).size).toBe(VERIFICATION_REASON_CODES.length);
    expect(VERIFICATION_POLICY.minLevelRisePercent).toBe(DETECTION_POLICY.fuelingMinRisePercent);
  });
});

describe('split purchases count together against the tank (100 gal tank)', () => {
  const split = (overrides: Partial<VerificationInput> & { gallons?: number }) =>
    verifyPurchase(input({ tankSizeGallons: 100, ...overrides }));
  const other = (id: string, minutes: number, gallons: number) => ({
    id,
    fueledAtMs: T0 + minutes * MIN,
    gallons,
  });
  /** 10 % full 20 min before the purchase: 90 gal of room, 5 gal tolerance. */
  const atTenPercent = [crumb(-20, 0.05, 10), crumb(-10, 0.05, 10)];

  it('flags 90 gal 5 min after another 90 gal: 180 gal is more than the tank, and more than the 95 gal of room', () => {
    const result = split({
      gallons: 90,
      breadcrumbs: atTenPercent,
      otherPurchases: [other('fueling_a', -5, 90)],
    });
    expect(result.status).toBe('flagged');
    // The tank's size is checked first; the room is not reached once that flags.
    expect(codes(result)).toContain('exceeds_tank_size');
    expect(result.reasons.find((r) => r.code === 'exceeds_tank_size')?.detail).toBe(
      "90 gal with the vehicle's other purchase within 60 min, fueling_a (90 gal, 5 min before the purchase), is 180 gal, which is more than the vehicle's 100 gal tank.",
    );
    // Alone, 90 gal fits the 90 gal of room.
    expect(split({ gallons: 90, breadcrumbs: atTenPercent }).reasons.map((r) => r.code)).not.toContain(
      'exceeds_tank_size',
    );
  });

  it('flags the room: 50 + 50 gal at 20 % (80 gal of room + 5 tolerance = 85 < 100), though 100 fits the tank', () => {
    const result = split({
      gallons: 50,
      breadcrumbs: [crumb(-20, 0.05, 20)],
      otherPurchases: [other('fueling_b', 10, 50)],
    });
    expect(result.status).toBe('flagged');
    expect(codes(result)).toContain('exceeds_room_in_tank');
    expect(result.reasons.find((r) => r.code === 'exceeds_room_in_tank')?.detail).toBe(
      "50 gal with the vehicle's other purchase within 60 min, fueling_b (50 gal, 10 min after the purchase), is 100 gal, which is more than the room in the tank: 20 % full of 100 gal 20 min before the purchase leaves 80 gal, plus a 5 gal tolerance (5 % of the tank).",
    );
  });

  it('passes 40 + 45 gal at 10 % (85 ≤ 95 gal of room): two purchases that fit together', () => {
    const result = split({
      gallons: 40,
      breadcrumbs: atTenPercent,
      otherPurchases: [other('fueling_c', 3, 45)],
    });
    expect(codes(result)).not.toContain('exceeds_room_in_tank');
    expect(codes(result)).not.toContain('exceeds_tank_size');
  });

  it('ignores purchases beyond the level window (61 min away), and, for the room, those before the level', () => {
    expect(
      codes(split({ gallons: 90, breadcrumbs: atTenPercent, otherPurchases: [other('fueling_d', -61, 90)] })),
    ).not.toContain('exceeds_tank_size');
    // 30 gal 25 min before the purchase, before the 10 % reading 20 min before: in that level already.
    // 30 + 70 = 100 fits the tank; the room (95) counts 70 only.
    const before = split({
      gallons: 70,
      breadcrumbs: atTenPercent,
      otherPurchases: [other('fueling_e', -25, 30)],
    });
    expect(codes(before)).not.toContain('exceeds_room_in_tank');
    // The same 30 gal 15 min before the purchase (after the reading): 100 > 95, flagged.
    const after = split({
      gallons: 70,
      breadcrumbs: atTenPercent,
      otherPurchases: [other('fueling_e', -15, 30)],
    });
    expect(codes(after)).toContain('exceeds_room_in_tank');
  });
});

describe('another purchase, not the same one again', () => {
  const purchase = {
    id: 'fueling_1',
    fueledAt: '2026-11-10T12:00:00.000000Z',
    gallons: 90,
    cardTransactionRef: 'CARD-1',
    linkedFuelingId: 'fueling_det',
  };
  it('is a different record, card transaction and detected fill', () => {
    expect(
      isAnotherPurchase(purchase, {
        ...purchase,
        id: 'fueling_2',
        cardTransactionRef: 'CARD-2',
        linkedFuelingId: null,
      }),
    ).toBe(true);
    // A re-send: the same record.
    expect(isAnotherPurchase(purchase, purchase)).toBe(false);
    // The same card transaction under another id (a different gallons figure sent).
    expect(isAnotherPurchase(purchase, { ...purchase, id: 'fueling_3', gallons: 89 })).toBe(false);
    // Linked to the same detected fill: one fill reported twice.
    expect(isAnotherPurchase(purchase, { ...purchase, id: 'fueling_4', cardTransactionRef: 'CARD-4' })).toBe(
      false,
    );
    // Neither side has a card reference: they are told apart by id.
    const bare = { ...purchase, cardTransactionRef: null, linkedFuelingId: null };
    expect(isAnotherPurchase(bare, { ...bare, id: 'fueling_5' })).toBe(true);
  });
});
