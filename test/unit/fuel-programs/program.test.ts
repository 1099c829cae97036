import { describe, expect, it } from 'vitest';
import {
  chainKey,
  discountCentsAt,
  type FuelProgram,
  inFuelProgram,
  mayRecommend,
  NO_FUEL_PROGRAM,
  offProgramPenalty,
  programDiscounts,
} from '#shared/fuel-programs/domain/program.ts';
import { stationPrice } from '#shared/stations/domain/station.ts';

const program = (rule: FuelProgram['rule']): FuelProgram => ({
  rule,
  chains: [
    { chain: "Love's", discountCents: 12 },
    { chain: 'Pilot Flying J', discountCents: 15 },
    { chain: 'TA', discountCents: 0 },
  ],
  offProgramPenaltyCents: 8,
  updatedAt: '2026-11-28T00:00:00.000000Z',
});

describe('chain names', () => {
  it('match whatever the case, the spacing or the apostrophe', () => {
    expect(chainKey('  LOVE’S ')).toBe(chainKey("Love's"));
    expect(chainKey('Pilot   Flying J')).toBe(chainKey('pilot flying j'));
  });

  it('do not match another spelling of the name', () => {
    expect(chainKey('Loves')).not.toBe(chainKey("Love's"));
  });
});

describe('discounts', () => {
  it('are found by chain key, so a feed spelling "LOVE’S" gets the card’s Love’s discount', () => {
    const discounts = programDiscounts(program('required'));
    expect(discountCentsAt(discounts, 'LOVE’S')).toBe(12);
    expect(discountCentsAt(discounts, 'Petro')).toBe(0);
    expect(stationPrice({ chain: 'pilot flying j', dieselPriceUsdPerGallon: 3.5 }, discounts)).toEqual({
      price: 3.5,
      discount: 0.15,
      net: 3.35,
    });
  });
});

describe('acceptance', () => {
  it('is not a question without a rule', () => {
    expect(inFuelProgram(program('none'), 'Petro')).toBeNull();
    expect(mayRecommend(program('none'), 'Petro')).toBe(true);
    expect(offProgramPenalty(program('none'), 'Petro')).toBe(0);
    expect(inFuelProgram(NO_FUEL_PROGRAM, "Love's")).toBeNull();
  });

  it('refuses an unlisted chain under required, a listed one with no discount is accepted', () => {
    expect(mayRecommend(program('required'), 'Petro')).toBe(false);
    expect(mayRecommend(program('required'), 'ta')).toBe(true);
    expect(inFuelProgram(program('required'), 'Petro')).toBe(false);
  });

  it('charges the penalty off the program under preferred, only there', () => {
    expect(mayRecommend(program('preferred'), 'Petro')).toBe(true);
    expect(offProgramPenalty(program('preferred'), 'Petro')).toBe(0.08);
    expect(offProgramPenalty(program('preferred'), "Love's")).toBe(0);
    expect(offProgramPenalty(program('required'), 'Petro')).toBe(0);
  });
});
