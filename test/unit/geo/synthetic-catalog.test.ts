import { describe, expect, it } from 'vitest';
import {
  buildSyntheticCatalog,
  NEAR_TOWN_MAX_MILES,
  syntheticCatalogVersion,
} from '#shared/geo/synthetic-catalog.ts';
import { stateAt, stateContains, stateName } from '#shared/geo/us-states.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { modelDieselPrice, STATE_DIESEL_TAX_USD } from '#shared/stations/domain/price-model.ts';
import graph from '../../../data/highway-graph.json' with { type: 'json' };

const NOW = Date.UTC(2026, 10, 23);
const catalog = buildSyntheticCatalog(NOW);

describe('stateAt', () => {
  it('tells the two sides of the Red River apart', () => {
    expect(stateAt(34.3339, -97.16283)).toBe('OK');
    expect(stateAt(33.2148, -97.1331)).toBe('TX'); // Denton
  });

  it('finds DC and Alaska, and nothing in a lake or across a border', () => {
    expect(stateAt(38.8977, -77.0365)).toBe('DC');
    expect(stateAt(61.2181, -149.9003)).toBe('AK');
    expect(stateAt(42.0, -87.0)).toBeUndefined(); // Lake Michigan
    expect(stateAt(31.69, -106.42)).toBeUndefined(); // Ciudad Juárez
  });

  it('answers the same whichever states are tried first', () => {
    expect(stateAt(34.3339, -97.16283, ['TX', 'AR'])).toBe('OK');
    expect(stateName('OK')).toBe('Oklahoma');
  });
});

describe('the synthetic catalog', () => {
  it('labels every station with the state that contains its coordinates', () => {
    expect(catalog.length).toBeGreaterThan(700);
    const mislabelled = catalog.filter(
      (station) => !stateContains(station.state, station.latitude, station.longitude),
    );
    expect(mislabelled.map((station) => `${station.name} ${station.state}`)).toEqual([]);
  });

  it('prices every station with its own state tax', () => {
    for (const station of catalog) {
      expect(station.dieselPriceUsdPerGallon).toBe(modelDieselPrice(station));
    }
  });

  it('puts the stop south of Ardmore in Oklahoma, priced with Oklahoma tax', () => {
    const stop = catalog.find((station) => station.latitude === 34.3339 && station.longitude === -97.16283);
    expect(stop).toMatchObject({ state: 'OK', address: 'I-35, OK', name: 'Independent I-35 Oklahoma' });
    const asOklahoma = modelDieselPrice({ id: stop?.id ?? '', state: 'OK', chain: 'Independent' });
    const asTexas = modelDieselPrice({ id: stop?.id ?? '', state: 'TX', chain: 'Independent' });
    expect(stop?.dieselPriceUsdPerGallon).toBe(asOklahoma);
    // Same tax in both states, but a different region (PADD 2 vs 3): the label changes the price.
    expect(STATE_DIESEL_TAX_USD.OK).toBe(STATE_DIESEL_TAX_USD.TX);
    expect(asOklahoma).not.toBe(asTexas);
  });

  it('names a stop after a graph city within the near-town distance, preferring its own state', () => {
    const cities = graph.nodes as { name: string; state: string; latitude: number; longitude: number }[];
    for (const station of catalog) {
      const near = /near ([^,]+), ([A-Z]{2})\)?$/.exec(station.address);
      if (!near) {
        expect(station.address).toMatch(/^I-\d+\w*, [A-Z]{2}$/);
        continue;
      }
      const city = cities.find((candidate) => candidate.name === near[1] && candidate.state === near[2]);
      expect(city, station.address).toBeDefined();
      const miles = city ? haversineMiles(station, city) : Number.POSITIVE_INFINITY;
      expect(miles).toBeLessThanOrEqual(NEAR_TOWN_MAX_MILES * 1.01);
      expect(station.name).toContain(near[1]);
      if (near[2] !== station.state) {
        // Across the border only when no city of the station's own state is near enough.
        const sameState = cities.filter(
          (candidate) =>
            candidate.state === station.state &&
            haversineMiles(station, candidate) < NEAR_TOWN_MAX_MILES * 0.99,
        );
        expect(sameState, station.address).toEqual([]);
      }
    }
  });

  it('is the same catalog every time (ids, places, prices)', () => {
    const again = buildSyntheticCatalog(NOW);
    expect(again).toEqual(catalog);
    expect(syntheticCatalogVersion()).toContain('geo2');
  });
});
