import { describe, expect, it } from 'vitest';
import { toFuelingItem } from '#shared/fuelings/store/fuelings.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';

const verdict = (status: StoredVerification['status']): StoredVerification => ({
  status,
  reasons: [],
  checkedAt: '2026-11-21T10:05:00.000000Z',
  rechecked: false,
});

const purchase = (verification: StoredVerification | null): Fueling => ({
  id: 'fuel_1',
  vehicleId: 'veh_1',
  source: 'reported',
  gallons: 180,
  fueledAt: '2026-11-21T10:00:00.000000Z',
  latitude: null,
  longitude: null,
  fuelLevelBeforePercent: null,
  fuelLevelAfterPercent: null,
  guidanceId: null,
  stopId: null,
  stationId: null,
  createdAt: '2026-11-21T10:05:00.000000Z',
  verification,
});

describe('the flagged purchases’ sparse index', () => {
  it('keys a flagged purchase by fleet, time and vehicle', () => {
    expect(toFuelingItem('flt_1', purchase(verdict('flagged')))).toMatchObject({
      gsi2pk: 'FLEET#flt_1#FLAGGED',
      gsi2sk: 'FUELING#2026-11-21T10:00:00.000000Z#veh_1#fuel_1',
    });
  });
  it('leaves every other fueling out of it', () => {
    for (const verification of [verdict('verified'), verdict('unverified'), null]) {
      const item = toFuelingItem('flt_1', purchase(verification));
      expect(item).not.toHaveProperty('gsi2pk');
      expect(item).not.toHaveProperty('gsi2sk');
    }
  });
});
