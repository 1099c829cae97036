import { describe, expect, it } from 'vitest';
import {
  modelDieselPrice,
  STATE_DIESEL_TAX_USD,
  STATE_PADD,
  STATION_SPREAD_USD,
  unitHash,
} from '#shared/stations/domain/price-model.ts';

describe('the synthetic diesel price model', () => {
  it('is deterministic per station', () => {
    const station = { id: 'stn_01JD7ZK3M4N5P6Q7R8S9T0V1W2', state: 'TX', chain: "Love's" };
    expect(modelDieselPrice(station)).toBe(modelDieselPrice({ ...station }));
  });

  it('covers every lower-48 state and DC with a region and a tax', () => {
    expect(Object.keys(STATE_PADD)).toHaveLength(49);
    for (const state of Object.keys(STATE_PADD)) expect(STATE_DIESEL_TAX_USD[state]).toBeTypeOf('number');
  });

  it('moves prices by the tax difference across a border in the same region', () => {
    // Same id and chain, so only the state differs: Illinois taxes diesel ~$0.13 more than Indiana.
    const il = modelDieselPrice({ id: 'x', state: 'IL', chain: 'TA' });
    const ind = modelDieselPrice({ id: 'x', state: 'IN', chain: 'TA' });
    expect(il - ind).toBeCloseTo((STATE_DIESEL_TAX_USD.IL ?? 0) - (STATE_DIESEL_TAX_USD.IN ?? 0), 2);
  });

  it('prices California above the Gulf Coast', () => {
    expect(modelDieselPrice({ id: 'x', state: 'CA', chain: 'TA' })).toBeGreaterThan(
      modelDieselPrice({ id: 'x', state: 'TX', chain: 'TA' }) + 1,
    );
  });

  it('keeps the station spread within its bound', () => {
    for (let i = 0; i < 1000; i++) {
      const h = unitHash(`stn_${i}`);
      expect(h).toBeGreaterThanOrEqual(-1);
      expect(h).toBeLessThan(1);
    }
    const base = modelDieselPrice({ id: 'a', state: 'TX', chain: 'TA' }) - unitHash('a') * STATION_SPREAD_USD;
    const other = modelDieselPrice({ id: 'b', state: 'TX', chain: 'TA' });
    expect(Math.abs(other - base)).toBeLessThanOrEqual(STATION_SPREAD_USD + 0.001);
  });

  it('refuses a state outside the lower 48', () => {
    expect(() => modelDieselPrice({ id: 'x', state: 'HI', chain: 'TA' })).toThrow(/HI/);
  });
});
