import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  effectiveMinArrivalFuelPercent,
  newCompanyFleet,
} from '#shared/fleets/domain/fleet.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';

describe('effectiveMinArrivalFuelPercent', () => {
  it('is 10 % when neither the request nor the fleet says otherwise', () => {
    // Assess
    expect(DEFAULT_MIN_ARRIVAL_FUEL_PERCENT).toBe(10);
    expect(effectiveMinArrivalFuelPercent(undefined, null)).toBe(10);
  });

  it("takes the fleet's setting when the request has none", () => {
    // Act / Assess
    expect(effectiveMinArrivalFuelPercent(undefined, { defaultMinArrivalFuelPercent: 25 })).toBe(25);
    expect(effectiveMinArrivalFuelPercent(undefined, { defaultMinArrivalFuelPercent: 0 })).toBe(0);
  });

  it("lets the request's value win, 0 included", () => {
    // Act / Assess
    expect(effectiveMinArrivalFuelPercent(15, { defaultMinArrivalFuelPercent: 25 })).toBe(15);
    expect(effectiveMinArrivalFuelPercent(0, { defaultMinArrivalFuelPercent: 25 })).toBe(0);
    expect(effectiveMinArrivalFuelPercent(80, null)).toBe(80);
  });
});

describe('newCompanyFleet', () => {
  it('starts a company fleet active, without a partner, every setting at its default', () => {
    // Act
    const identity = {
      id: 'flt_1',
      name: 'Acme',
      externalRef: null,
      contactEmail: 'ops@acme.example',
      timezone: 'America/Chicago',
    };
    const fleet = newCompanyFleet(identity, '2026-01-02T03:04:05Z');
    // Assess
    expect(fleet).toEqual({
      ...identity,
      status: 'active',
      defaultMinArrivalFuelPercent: 10,
      assumedDepartureFuelPercent: 100,
      fuelTaxTreatment: 'ifta',
      fuelProgram: { rule: 'none', chains: [], offProgramPenaltyCents: 0, updatedAt: null },
      truckProfile: UNSET_TRUCK_PROFILE,
      partnerId: null,
      createdAt: '2026-01-02T03:04:05Z',
      updatedAt: '2026-01-02T03:04:05Z',
    });
    // Each fleet gets its own truck profile object: changing one never changes the shared default.
    expect(fleet.truckProfile).not.toBe(UNSET_TRUCK_PROFILE);
  });
});
