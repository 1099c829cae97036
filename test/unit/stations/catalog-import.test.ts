import { describe, expect, it } from 'vitest';
import { csvRows, jsonRows, parseCatalogRows } from '../../../shared/domain/stations/catalog-import.ts';
import { isPublicId } from '../../../shared/platform/ids.ts';

/** The import's time: after every price_updated_at below. */
const NOW = Date.parse('2026-11-21T00:00:00Z');

const header =
  'name,chain,latitude,longitude,address,state,amenities,diesel_price_usd_per_gallon,price_updated_at';

describe('CSV catalog import', () => {
  it('parses quoted fields with commas, doubled quotes and CRLF line ends', () => {
    const text = `${header}\r\n"Pilot #412, Amarillo",Pilot Flying J,35.19,-101.83,"I-40 Exit 76 ""East""",TX,showers;scales,3.459,2026-11-20T12:00:00Z\r\n`;
    const { stations, rejected } = parseCatalogRows(csvRows(text), { nowMs: NOW });
    expect(rejected).toEqual([]);
    expect(stations).toHaveLength(1);
    expect(stations[0]).toMatchObject({
      name: 'Pilot #412, Amarillo',
      chain: 'Pilot Flying J',
      address: 'I-40 Exit 76 "East"',
      amenities: ['showers', 'scales'],
      fuels: ['diesel'],
      dieselPriceUsdPerGallon: 3.459,
      state: 'TX',
    });
  });

  it('rejects bad rows by line with a reason and keeps the good ones', () => {
    const text = [
      header,
      'Good,TA,35,-101,,TX,,3.5,2026-11-20T12:00:00Z',
      'No price,TA,35,-101,,TX,,,2026-11-20T12:00:00Z',
      'Ocean,TA,10,-150,,TX,,3.5,2026-11-20T12:00:00Z',
      'Hawaii,TA,35,-101.5,,HI,,3.5,2026-11-20T12:00:00Z',
      '',
      'Also good,TA,36,-100,,OK,,3.4,2026-11-20T12:00:00Z',
    ].join('\n');
    const { stations, rejected } = parseCatalogRows(csvRows(text), { nowMs: NOW });
    expect(stations.map((s) => s.name)).toEqual(['Good', 'Also good']);
    expect(rejected.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(rejected[0]?.reason).toContain('diesel_price_usd_per_gallon');
    expect(rejected[1]?.reason).toBe(
      'latitude: must be between 24 and 50 degrees; longitude: must be between -125 and -66 degrees',
    );
    expect(rejected[2]?.reason).toContain('state');
  });

  it('derives stable stn_ ids from chain and coordinates, and rejects duplicates', () => {
    const row = 'A,TA,35,-101,,TX,,3.5,2026-11-20T12:00:00Z';
    const first = parseCatalogRows(csvRows(`${header}\n${row}`), { nowMs: NOW }).stations[0];
    const again = parseCatalogRows(csvRows(`${header}\n${row}\n${row}`), { nowMs: NOW });
    expect(first && isPublicId('station', first.id)).toBe(true);
    expect(again.stations[0]?.id).toBe(first?.id);
    expect(again.rejected).toEqual([{ line: 3, reason: `duplicate station ${first?.id}` }]);
  });
});

describe('JSON catalog import', () => {
  it('numbers rows by position and validates each', () => {
    const text = JSON.stringify([
      {
        name: 'A',
        chain: 'TA',
        latitude: 35,
        longitude: -101,
        state: 'tx',
        diesel_price_usd_per_gallon: 3.5,
        price_updated_at: '2026-11-20T12:00:00Z',
      },
      { name: 'B' },
    ]);
    const { stations, rejected } = parseCatalogRows(jsonRows(text), { nowMs: NOW });
    expect(stations.map((s) => s.state)).toEqual(['TX']);
    expect(rejected.map((r) => r.line)).toEqual([2]);
  });

  it('refuses a document that is not an array', () => {
    expect(() => jsonRows('{"stations":[]}')).toThrow(/array/);
  });
});
