import { describe, expect, it } from 'vitest';
import { stopArrivedEvent, vehicleOnlineEvent } from '#shared/events/domain/event-payloads.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { guidanceResource } from '#shared/guidance/api/serializers.ts';
import { startSession } from '#shared/guidance/domain/session.ts';
import { stationResource } from '#shared/stations/api/serializers.ts';
import type { Station } from '#shared/stations/domain/station.ts';

/** Float noise as arithmetic leaves it (interpolated positions, converted units), and its 5-decimal form. */
const NOISY = { latitude: 32.884699999999995, longitude: -97.16283000000001 };
const ROUNDED = { latitude: 32.8847, longitude: -97.16283 };
const NOW_MS = Date.parse('2026-11-21T12:00:00Z');

describe('coordinates leave the API at 5 decimal places, wherever they are written', () => {
  it('in stations', () => {
    const station: Station = {
      id: 'stn_1',
      name: 'Independent Denton (I-35)',
      chain: 'Independent',
      ...NOISY,
      address: 'I-35 exit 469',
      state: 'TX',
      amenities: [],
      fuels: ['diesel'],
      dieselPriceUsdPerGallon: 3.459,
      priceUpdatedAtMs: NOW_MS,
    };
    expect(stationResource(station, { program: NO_FUEL_PROGRAM, discounts: {} }, NOW_MS)).toMatchObject(
      ROUNDED,
    );
  });

  it('in guidance: destination, position, and fuel level to 0.1', () => {
    const session = {
      ...startSession({
        id: 'gd_1',
        vehicleId: 'veh_1',
        destination: { ...NOISY, name: 'Denton' },
        minArrivalFuelPercent: 20,
        nowMs: NOW_MS,
      }),
      position: { ...NOISY, recordedAtMs: NOW_MS },
      fuel: { percent: 37.123, source: 'reported' as const, reportedAtMs: NOW_MS },
    };
    const resource = guidanceResource(session, NOW_MS);
    expect(resource.destination).toMatchObject(ROUNDED);
    expect(resource.position).toMatchObject(ROUNDED);
    expect(resource.fuel?.level_percent).toBe(37.1);
  });

  it('in event payloads: the position and the station of a stop event, and a vehicle back online', () => {
    const stop = { stopId: 'gds_1', stationId: 'stn_1', name: 'Denton', ...NOISY };
    const arrived = stopArrivedEvent('veh_1', 'gd_1', { kind: 'stop_arrived', atMs: NOW_MS, stop, ...NOISY });
    const online = vehicleOnlineEvent('veh_1', NOW_MS - 3_600_000, { receivedAtMs: NOW_MS, ...NOISY });
    expect(arrived.data).toMatchObject({ ...ROUNDED, station: { id: 'stn_1', ...ROUNDED } });
    expect(online.data).toMatchObject(ROUNDED);
  });
});
