import { describe, expect, it } from 'vitest';
import { StationIndex } from '#shared/geo/station-index.ts';
import { isPriceStale, type Station, stationPrice } from '#shared/stations/domain/station.ts';

const at = (id: string, latitude: number, longitude: number, chain = 'TA'): Station => ({
  id,
  name: id,
  chain,
  latitude,
  longitude,
  address: '',
  state: 'TX',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: 3.5,
  priceUpdatedAtMs: 0,
});

// One degree of latitude is ~69.1 miles.
const stations = [
  at('a', 32.0, -97.0),
  at('b', 32.1, -97.0), // ~6.9 mi north of the query point
  at('c', 32.5, -97.0), // ~34.6 mi
  at('d', 33.0, -97.0), // ~69 mi
  at('e', 32.0, -96.9, "Love's"), // ~5.9 mi east at this latitude
];

describe('StationIndex.nearby', () => {
  const index = new StationIndex('v1', stations);

  it('returns stations within the radius, nearest first, with distances in miles', () => {
    const found = index.nearby(32.0, -97.0, 40, 10);
    expect(found.map((f) => f.station.id)).toEqual(['a', 'e', 'b', 'c']);
    expect(found[2]?.distanceMiles).toBeCloseTo(6.91, 1);
    expect(found[1]?.distanceMiles).toBeCloseTo(5.87, 1);
  });

  it('honours the limit and the filter', () => {
    expect(index.nearby(32.0, -97.0, 40, 2).map((f) => f.station.id)).toEqual(['a', 'e']);
    expect(index.nearby(32.0, -97.0, 40, 10, (s) => s.chain === "Love's").map((f) => f.station.id)).toEqual([
      'e',
    ]);
  });

  it('finds nothing in an empty catalog', () => {
    expect(new StationIndex('empty', []).nearby(32, -97, 50, 25)).toEqual([]);
  });
});

describe('StationIndex.aroundPoints', () => {
  it('returns each station near any of the points once', () => {
    const index = new StationIndex('v1', stations);
    const found = index.aroundPoints(
      [
        { latitude: 32.0, longitude: -97.0 },
        { latitude: 32.05, longitude: -97.0 },
      ],
      8,
    );
    expect(found.map((s) => s.id).sort()).toEqual(['a', 'b', 'e']);
  });
});

describe('prices', () => {
  it('nets the fleet discount (cents per gallon) off the posted price', () => {
    expect(stationPrice({ chain: 'TA', dieselPriceUsdPerGallon: 3.599 }, { TA: 13 })).toEqual({
      price: 3.599,
      discount: 0.13,
      net: 3.469,
    });
    expect(stationPrice({ chain: 'Petro', dieselPriceUsdPerGallon: 3.599 }, { TA: 13 }).net).toBe(3.599);
  });

  it('flags prices older than 48 hours as stale', () => {
    const hour = 3_600_000;
    expect(isPriceStale({ priceUpdatedAtMs: 0 }, 48 * hour)).toBe(false);
    expect(isPriceStale({ priceUpdatedAtMs: 0 }, 48 * hour + 1)).toBe(true);
  });
});
