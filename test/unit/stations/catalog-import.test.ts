import { describe, expect, it } from 'vitest';
import { isPublicId } from '#shared/kernel/ids.ts';
import {
  csvRows,
  FUEL_TYPES,
  jsonRows,
  parseCatalogRows,
  priceFileRows,
} from '#shared/stations/domain/catalog-import.ts';

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

describe('row guards', () => {
  const columns = 'name,chain,latitude,longitude,state,fuels,diesel_price_usd_per_gallon,price_updated_at';
  const parse = (...rows: string[]) =>
    parseCatalogRows(csvRows([columns, ...rows].join('\n')), { nowMs: NOW });

  it("rejects a price observed after the import's time, and accepts one observed at it", () => {
    const { stations, rejected } = parse(
      'Now,TA,35,-101,TX,,3.5,2026-11-21T00:00:00Z',
      'A second late,TA,35.1,-101,TX,,3.5,2026-11-21T00:00:01Z',
      'Other zone,TA,35.2,-101,TX,,3.5,2026-11-20T20:00:00-05:00',
    );
    expect(stations.map((s) => s.name)).toEqual(['Now']);
    expect(rejected).toEqual([
      {
        line: 3,
        reason:
          "price_updated_at: 2026-11-21T00:00:01Z is after the import's time: a price cannot be observed in the future",
      },
      {
        line: 4,
        reason:
          "price_updated_at: 2026-11-20T20:00:00-05:00 is after the import's time: a price cannot be observed in the future",
      },
    ]);
  });

  it('rejects a station whose state does not contain its coordinates, naming both', () => {
    const { stations, rejected } = parse(
      // Oklahoma City, said to be in Texas.
      'OKC,TA,35.47,-97.52,TX,,3.5,2026-11-20T12:00:00Z',
      'OKC,TA,35.47,-97.52,OK,,3.5,2026-11-20T12:00:00Z',
    );
    expect(stations.map((s) => s.state)).toEqual(['OK']);
    expect(rejected).toEqual([
      { line: 2, reason: 'state: 35.47, -97.52 is not in Texas (TX) nor within 1 mile of it' },
    ]);
  });

  it('accepts a station on a border that the 1:10M outline puts a few hundred metres into the next state', () => {
    // State Line Avenue, Texarkana: the outline draws the TX/AR line at about -94.0415, so these
    // stations east of the real line (-94.043) plot in Texas; 1.1 miles east of the outline's line is too far.
    const { stations, rejected } = parse(
      'Texarkana AR side,TA,33.4255,-94.042,AR,,3.5,2026-11-20T12:00:00Z',
      'Texarkana TX side,TA,33.4255,-94.044,TX,,3.5,2026-11-20T12:00:00Z',
      'Too far,TA,33.4255,-94.06,AR,,3.5,2026-11-20T12:00:00Z',
    );
    expect(stations.map((s) => s.name)).toEqual(['Texarkana AR side', 'Texarkana TX side']);
    expect(rejected).toEqual([
      { line: 4, reason: 'state: 33.4255, -94.06 is not in Arkansas (AR) nor within 1 mile of it' },
    ]);
  });

  it('takes fuels from the vocabulary only, requires diesel, and defaults to diesel', () => {
    const { stations, rejected } = parse(
      'All,TA,35,-101,TX,DIESEL;def;biodiesel;renewable_diesel;dyed_diesel;gasoline;cng;lng;def,3.5,2026-11-20T12:00:00Z',
      'Default,TA,35.1,-101,TX,,3.5,2026-11-20T12:00:00Z',
      'Unknown,TA,35.2,-101,TX,diesel;kerosene;jet_a,3.5,2026-11-20T12:00:00Z',
      'No diesel,TA,35.3,-101,TX,gasoline;def,3.5,2026-11-20T12:00:00Z',
    );
    // Lower-cased and without repeats, in the file's order.
    expect(stations.map((s) => s.fuels)).toEqual([[...FUEL_TYPES], ['diesel']]);
    expect(rejected).toEqual([
      {
        line: 4,
        reason: `fuels: unknown fuel 'kerosene', 'jet_a' (expected one of diesel, def, biodiesel, renewable_diesel, dyed_diesel, gasoline, cng, lng)`,
      },
      { line: 5, reason: 'fuels: must include diesel' },
    ]);
  });

  it('reports every problem of a row in one reason', () => {
    const { rejected } = parse('Bad,TA,35.47,-97.52,TX,avgas,3.5,2030-01-01T00:00:00Z');
    expect(rejected[0]?.reason.split('; ').map((part) => part.split(':')[0])).toEqual([
      'fuels',
      'price_updated_at',
      'state',
    ]);
  });
});

describe('price file rows', () => {
  it('refuses a CSV header without the required columns, naming them', () => {
    expect(priceFileRows('name,chain,lat,lon,state,price,updated\nA,TA,35,-101,TX,3.5,x\n', 'csv')).toEqual({
      ok: false,
      reason:
        'The CSV header lacks the columns latitude, longitude, diesel_price_usd_per_gallon, price_updated_at; the first line must name the columns (docs/price-feed.md).',
    });
  });

  it('reads a CSV that starts with a byte order mark and a header in another case', () => {
    const rows = priceFileRows(
      `\uFEFF${header.toUpperCase()}\nA,TA,35,-101,,TX,,3.5,2026-11-20T12:00:00Z\n`,
      'csv',
    );
    expect(rows.ok && rows.rows[0]?.values.name).toBe('A');
  });

  it('takes amenities and fuels as arrays in JSON', () => {
    const rows = priceFileRows(
      JSON.stringify([
        {
          name: 'A',
          chain: 'TA',
          latitude: 35,
          longitude: -101,
          state: 'TX',
          amenities: ['showers', 'scales'],
          fuels: ['diesel', 'def'],
          diesel_price_usd_per_gallon: 3.5,
          price_updated_at: '2026-11-20T12:00:00Z',
        },
      ]),
      'json',
    );
    if (!rows.ok) throw new Error(rows.reason);
    expect(parseCatalogRows(rows.rows, { nowMs: NOW }).stations[0]).toMatchObject({
      amenities: ['showers', 'scales'],
      fuels: ['diesel', 'def'],
    });
  });

  it('refuses JSON that does not parse or is not an array', () => {
    expect(priceFileRows('[{', 'json')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^The file is not valid JSON/),
    });
    expect(priceFileRows('{"a":1}', 'json')).toEqual({
      ok: false,
      reason: 'A JSON price file must be an array of station objects',
    });
  });
});
