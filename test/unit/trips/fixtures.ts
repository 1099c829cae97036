import type { Trip, TripStatus, TripStop } from '#shared/trips/domain/trip.ts';

export const T0 = Date.UTC(2026, 10, 23, 12);

export const pickup: TripStop = {
  id: 'tsp_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
  type: 'pickup',
  name: 'Dock 4',
  latitude: 32.9,
  longitude: -97.1,
  plannedArrivalAtMs: null,
  arrivedAtMs: null,
  departedAtMs: null,
  fuel: null,
};

export const fuelStop: TripStop = {
  id: 'tsp_01JD7ZK3M4N5P6Q7R8S9T0V1W3',
  type: 'fuel',
  name: "Love's Amarillo",
  latitude: 35.2219712,
  longitude: -101.8312968,
  plannedArrivalAtMs: null,
  arrivedAtMs: null,
  departedAtMs: null,
  fuel: {
    station: {
      id: 'stn_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
      name: "Love's Amarillo",
      chain: "Love's",
      latitude: 35.2219712,
      longitude: -101.8312968,
      address: 'I-40, Amarillo, TX',
    },
    milesAlongRoute: 360.2,
    detourMiles: 0.4,
    gallonsToBuy: 92.5,
    price: 3.459,
    discount: 0.12,
    netPrice: 3.339,
    priceIsStale: false,
    reason: 'Cheapest on the route',
  },
};

export function aTrip(status: TripStatus = 'planned', overrides: Partial<Trip> = {}): Trip {
  return {
    id: 'trip_01JD7ZK3M4N5P6Q7R8S9T0V1W5',
    fleetId: 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W6',
    vehicleId: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W7',
    externalRef: 'TRUCK-42',
    reference: 'LOAD-1001',
    status,
    autoOptimize: true,
    origin: { latitude: 32.7767, longitude: -96.797, name: 'Dallas' },
    destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
    plannedStartAtMs: T0,
    plannedEndAtMs: null,
    startedAtMs: status === 'planned' ? null : T0,
    completedAtMs: status === 'completed' ? T0 + 1 : null,
    cancelledAtMs: status === 'cancelled' ? T0 + 1 : null,
    cancelReason: null,
    startFuelPercent: 40,
    minArrivalFuelPercent: null,
    stops: [pickup, fuelStop],
    route: null,
    fuelPlan: null,
    guidanceId: null,
    outbox: null,
    createdAtMs: T0 - 60_000,
    updatedAtMs: T0 - 60_000,
    version: 3,
    ...overrides,
  };
}
