import type { GeoPoint } from '#shared/kernel/distance.ts';

/** A simulated truck's character: what it carries, how it drives and how it burns fuel. */
export interface TruckProfile {
  id: 'long_haul_sleeper' | 'regional_day_cab' | 'reefer_low_fuel';
  title: string;
  tankSizeGallons: number;
  mpg: number;
  /** Interstate cruising speed. */
  cruiseMph: number;
  /** Fuel at provisioning (and after a reset), as a share of the tank. */
  startFuelPercent: number;
  /** Where it starts and the cities it picks its next destination from. */
  homeCityId: CityId;
  cityIds: readonly CityId[];
}

/** Real cities of the embedded highway network (node ids of data/highway-graph.json). */
export const SIM_CITIES = {
  'dallas-tx': { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 },
  'oklahoma-city-ok': { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 },
  'amarillo-tx': { name: 'Amarillo, TX', latitude: 35.222, longitude: -101.8313 },
  'denver-co': { name: 'Denver, CO', latitude: 39.7392, longitude: -104.9903 },
  'kansas-city-mo': { name: 'Kansas City, MO', latitude: 39.0997, longitude: -94.5786 },
  'st-louis-mo': { name: 'St. Louis, MO', latitude: 38.627, longitude: -90.1994 },
  'memphis-tn': { name: 'Memphis, TN', latitude: 35.1495, longitude: -90.049 },
  'little-rock-ar': { name: 'Little Rock, AR', latitude: 34.7465, longitude: -92.2896 },
  'houston-tx': { name: 'Houston, TX', latitude: 29.7604, longitude: -95.3698 },
  'san-antonio-tx': { name: 'San Antonio, TX', latitude: 29.4241, longitude: -98.4936 },
  'albuquerque-nm': { name: 'Albuquerque, NM', latitude: 35.0844, longitude: -106.6504 },
  'nashville-tn': { name: 'Nashville, TN', latitude: 36.1627, longitude: -86.7816 },
} as const satisfies Record<string, GeoPoint & { name: string }>;

export type CityId = keyof typeof SIM_CITIES;
export type City = (typeof SIM_CITIES)[CityId] & { id: CityId };

export function cityOf(id: CityId): City {
  return { id, ...SIM_CITIES[id] };
}

/**
 * The three trucks every sandbox twin has: a sleeper that crosses the plains with a big tank, a day
 * cab shuttling between Texas cities, and a reefer (its unit burns fuel too, hence the lower mpg)
 * that starts low so guidance has a stop to recommend within minutes.
 */
export const TRUCK_PROFILES: readonly TruckProfile[] = [
  {
    id: 'long_haul_sleeper',
    title: 'Long-haul sleeper',
    tankSizeGallons: 300,
    mpg: 6.8,
    cruiseMph: 64,
    startFuelPercent: 72,
    homeCityId: 'oklahoma-city-ok',
    cityIds: ['denver-co', 'albuquerque-nm', 'kansas-city-mo', 'st-louis-mo', 'dallas-tx', 'memphis-tn'],
  },
  {
    id: 'regional_day_cab',
    title: 'Regional day cab',
    tankSizeGallons: 150,
    mpg: 7.4,
    cruiseMph: 60,
    startFuelPercent: 58,
    homeCityId: 'dallas-tx',
    cityIds: ['houston-tx', 'san-antonio-tx', 'oklahoma-city-ok', 'dallas-tx'],
  },
  {
    id: 'reefer_low_fuel',
    title: 'Reefer, starts low on fuel',
    tankSizeGallons: 200,
    mpg: 5.9,
    cruiseMph: 62,
    startFuelPercent: 24,
    homeCityId: 'memphis-tn',
    cityIds: ['little-rock-ar', 'dallas-tx', 'nashville-tn', 'st-louis-mo', 'memphis-tn'],
  },
];

export function profileOf(id: TruckProfile['id']): TruckProfile {
  const profile = TRUCK_PROFILES.find((p) => p.id === id);
  if (!profile) throw new RangeError(`unknown truck profile ${id}`);
  return profile;
}
