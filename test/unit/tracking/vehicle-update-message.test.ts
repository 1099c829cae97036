import { describe, expect, it } from 'vitest';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import {
  parseVehicleUpdateMessage,
  toVehicleUpdateWire,
  type VehicleUpdateMessage,
} from '#shared/tracking/domain/messages.ts';
import type { HistoryPoint } from '#shared/tracking/domain/positions.ts';
import { RING_MAX_POINTS } from '#shared/tracking/store/position-ring.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';

const T0 = Date.UTC(2026, 10, 24, 14, 0, 0, 0);
const fleetId = 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2';
const vehicleId = 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4';

/** A truck's breadcrumbs a minute apart, with the odd missing gauge and speed. */
const ring = (count: number): HistoryPoint[] =>
  Array.from({ length: count }, (_, i) => ({
    recordedAtMs: T0 + i * 60_000,
    latitude: 35.2219971 + i * 0.0123457,
    longitude: -101.8312969 - i * 0.0187654,
    fuelLevelPercent: i % 7 === 3 ? null : 62.4 - i * 0.35,
    speedKmh: i % 11 === 5 ? null : 96.56,
  }));

const vehicle: Vehicle = {
  id: vehicleId,
  fleetId,
  externalRef: 'TRK-1042-long-haul-sleeper',
  linkedExternalRefs: ['eld:7781-2231-0042', 'tms:UNIT-1042'],
  name: 'Unit 1042 — Freightliner Cascadia',
  vin: '1FUJGLDR7CLBP8834',
  tankSizeGallons: 250,
  estimatedMpg: 6.8,
  licensePlate: 'TX R123-456',
  fuelTaxTreatment: null,
  truckProfile: { ...UNSET_TRUCK_PROFILE },
  status: 'active',
  createdAt: '2026-11-01T08:00:00.000000Z',
  updatedAt: '2026-11-20T08:00:00.000000Z',
  version: 7,
};

function messageWith(recent: HistoryPoint[]): VehicleUpdateMessage {
  const last = recent.at(-1) as HistoryPoint;
  return {
    fleetId,
    vehicleId,
    positionVersion: 412,
    positions: {
      latest: {
        ...last,
        receivedAtMs: last.recordedAtMs + 4_000,
        headingDegrees: 271,
        driverRef: 'drv-5531',
        address: 'I-40 westbound, mile 71, Amarillo, TX 79124',
        recordedAt: new Date(last.recordedAtMs).toISOString(),
      },
      recent,
      flushedThroughMs: T0 - 60_000,
      version: 412,
    },
    vehicle,
  };
}

const onTheQueue = (message: VehicleUpdateMessage) => JSON.stringify(toVehicleUpdateWire(message));

describe('vehicle-updates messages on the queue', () => {
  it('come back from their wire form as they were sent, missing gauges and speeds included', () => {
    const sent = messageWith(ring(RING_MAX_POINTS));
    expect(parseVehicleUpdateMessage(onTheQueue(sent))).toEqual(sent);
  });

  it('keep a batch of ten with full rings within one 64 KB SQS chunk', () => {
    const batch = Array.from({ length: 10 }, () => onTheQueue(messageWith(ring(RING_MAX_POINTS))));
    const bytes = batch.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
    expect(bytes).toBeLessThan(64 * 1024);
  });

  it('carry no `recent` list, so a worker deployed before the tuples reads the item itself', () => {
    const wire = JSON.parse(onTheQueue(messageWith(ring(3)))) as { positions: Record<string, unknown> };
    expect(wire.positions).not.toHaveProperty('recent');
    expect(wire.positions.recentTuples).toHaveLength(3);
  });

  it('are still read as an ingest deployed before the tuples sent them (a list of objects)', () => {
    const sent = messageWith(ring(4));
    expect(parseVehicleUpdateMessage(JSON.stringify(sent))).toEqual(sent);
  });

  it('lose only their position snapshot when a tuple is not one ingest writes', () => {
    const wire = toVehicleUpdateWire(messageWith(ring(3)));
    const broken = {
      ...wire,
      positions: {
        ...wire.positions,
        recentTuples: [[T0, 35.2, -101.8, 60], ...(wire.positions?.recentTuples ?? [])],
      },
    };
    const parsed = parseVehicleUpdateMessage(JSON.stringify(broken));
    expect(parsed).toEqual({ fleetId, vehicleId, positionVersion: 412, vehicle });
  });
});
