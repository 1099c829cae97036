import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { savingsAgainstBaseline } from '../../../shared/domain/fuel-plan/savings.ts';
import { PROPERTY_TIMEOUT_MS } from '../../support/property-budget.ts';

/** Stations as the comparison reads them: only their net prices matter. */
const stationsAt = (...netPrices: number[]) => ({
  stations: netPrices.map((netPrice) => ({ netPrice })) as never,
});
const feasible = (cost: number, arrivalFuelGallons: number) => ({ feasible: true, cost, arrivalFuelGallons });

describe('savingsAgainstBaseline: the plan against fill-at-a-quarter, like for like', () => {
  it('credits the fuel the baseline arrives with beyond the plan’s, at the mean net price on the route', () => {
    // Arrange: Chicago → Denver, 200-gal tank from 30%: the plan buys 139.5 gal for $481.02 and
    // arrives with 40.1 gal; the baseline fills to full for $603.31 and arrives with 52.3 gal.
    const route = stationsAt(3.45, 3.79);

    // Act
    const savings = savingsAgainstBaseline(
      route,
      { cost: 481.02, arrivalFuelGallons: 40.1 },
      feasible(603.31, 52.3),
    );

    // Assess: 12.2 gal × $3.62 = $44.16; $603.31 − $44.16 = $559.15; − $481.02 = $78.13 (14.0 %).
    expect(savings).toEqual({
      basis: 'same_arrival_fuel',
      extraArrivalFuelGallons: 12.2,
      fuelValuePerGallon: 3.62,
      extraArrivalFuelValue: 44.16,
      baselineCost: 559.15,
      planCost: 481.02,
      usd: 78.13,
      percent: 14,
      description:
        'The baseline arrives with 12.2 gal more than the plan. Valued at $3.62/gal (the mean net price on the route), ' +
        "that fuel is worth $44.16, so to arrive with the plan's fuel the baseline costs $603.31 − $44.16 = $559.15, " +
        "against the plan's $481.02: $78.13 (14%) saved.",
    });
  });

  it('compares directly when both arrive with the same fuel, and says so when the plan costs more', () => {
    const same = savingsAgainstBaseline(
      stationsAt(3.5),
      { cost: 300, arrivalFuelGallons: 40 },
      feasible(330, 40),
    );
    const dearer = savingsAgainstBaseline(
      stationsAt(3.5),
      { cost: 300, arrivalFuelGallons: 40 },
      feasible(290, 40),
    );

    expect(same).toMatchObject({ usd: 30, percent: 9.1, extraArrivalFuelValue: 0, baselineCost: 330 });
    expect(same?.description).toBe(
      "Both arrive with the same fuel, so the costs compare directly: the baseline's $330.00 against the plan's $300.00: $30.00 (9.1%) saved.",
    );
    expect(dearer?.usd).toBe(-10);
    expect(dearer?.description).toContain('the plan costs $10.00 (3.4%) more');
  });

  it('compares nothing with a baseline that runs dry', () => {
    expect(
      savingsAgainstBaseline(
        stationsAt(3.5),
        { cost: 300, arrivalFuelGallons: 40 },
        {
          feasible: false,
          cost: 120,
          arrivalFuelGallons: 0,
        },
      ),
    ).toBeNull();
  });

  it('publishes figures that add up to the cent, whatever the inputs', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    const money = fc.integer({ min: 0, max: 200_000 }).map((cents) => cents / 100);
    const gallons = fc.integer({ min: 0, max: 3_000 }).map((tenths) => tenths / 10);
    const price = fc.integer({ min: 250, max: 600 }).map((cents) => cents / 100);
    fc.assert(
      fc.property(
        money,
        gallons,
        money,
        gallons,
        fc.array(price, { minLength: 1, maxLength: 8 }),
        (pc, pa, bc, ba, prices) => {
          const s = savingsAgainstBaseline(
            stationsAt(...prices),
            { cost: pc, arrivalFuelGallons: pa },
            feasible(bc, ba),
          );
          if (!s) throw new Error('a feasible baseline is always compared');
          const cents = (usd: number) => Math.round(usd * 100);
          expect(cents(s.extraArrivalFuelGallons)).toBe(cents(ba - pa));
          expect(cents(s.baselineCost)).toBe(cents(bc) - cents(s.extraArrivalFuelValue));
          expect(cents(s.usd)).toBe(cents(s.baselineCost) - cents(s.planCost));
          expect(
            Math.abs(cents(s.extraArrivalFuelValue) - s.extraArrivalFuelGallons * s.fuelValuePerGallon * 100),
          ).toBeLessThanOrEqual(0.5 + 1e-6);
        },
      ),
      { numRuns: 100 },
    );
  });
});
