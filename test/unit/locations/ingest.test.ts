import { describe, expect, it, vi } from 'vitest';
import { freshnessOf } from '../../../shared/domain/telematics/freshness.ts';
import type { PositionFix } from '../../../shared/domain/telematics/positions.ts';
import type { Vehicle } from '../../../shared/domain/vehicle.ts';
import { newId } from '../../../shared/platform/ids.ts';
import { ingestLocations } from '../../../shared/usecases/locations.ts';

const A = newId('vehicle');
const B = newId('vehicle');
const Z = newId('vehicle');

const NOW = Date.parse('2026-11-21T12:00:00Z');
const vehicle = (id: string, status: Vehicle['status'] = 'active') => ({ id, status }) as Vehicle;

function deps() {
  const byId = new Map([
    [A, vehicle(A)],
    [B, vehicle(B)],
  ]);
  const latest = new Map<string, PositionFix>();
  const history: Record<string, PositionFix[]> = {};
  const queued: { fleetId: string; vehicleId: string }[] = [];
  return {
    latest,
    history,
    queued,
    deps: {
      vehicles: {
        get: vi.fn(async (_fleet: string, id: string) => byId.get(id) ?? null),
        idForExternalRef: vi.fn(async (_fleet: string, ref: string) => (ref === 'TRUCK-B' ? B : null)),
      },
      positions: {
        recordLatest: vi.fn(async (_fleet: string, id: string, fix: PositionFix) => {
          latest.set(id, fix);
          return true;
        }),
        appendHistory: vi.fn(async (_fleet: string, id: string, fixes: readonly PositionFix[]) => {
          history[id] = [...(history[id] ?? []), ...fixes];
        }),
      },
      vehicleUpdates: {
        send: vi.fn(async (messages: readonly { fleetId: string; vehicleId: string }[]) => {
          queued.push(...messages);
        }),
      },
      now: () => NOW,
    },
  };
}

const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

describe('ingestLocations', () => {
  it('keeps the newest breadcrumb per vehicle as latest, all of them as history, whatever the order', async () => {
    const h = deps();
    const response = await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) },
      { vehicle_id: A, latitude: 2, longitude: 2, recorded_at: at(10) },
      { external_ref: 'TRUCK-B', latitude: 3, longitude: 3, recorded_at: at(5), speed_mph: 10 },
      { external_ref: 'TRUCK-B', latitude: 4, longitude: 4, recorded_at: at(2) },
    ]);
    expect(response).toMatchObject({ accepted: 4, rejected: 0 });
    expect(h.queued.map((m) => m.vehicleId).sort()).toEqual([A, B].sort());
    expect(h.queued.every((m) => m.fleetId === 'flt_1')).toBe(true);
    expect(h.latest.get(A)?.latitude).toBe(1);
    expect(h.latest.get(B)?.latitude).toBe(4);
    expect(h.history[A]).toHaveLength(2);
    expect(h.history[B]?.find((f) => f.latitude === 3)?.speedKmh).toBe(16.09);
    // One lookup per distinct reference, not per breadcrumb.
    expect(h.deps.vehicles.idForExternalRef).toHaveBeenCalledTimes(1);
  });

  it('writes nothing for a batch of rejected rows', async () => {
    const h = deps();
    const response = await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: Z, latitude: 1, longitude: 1, recorded_at: at(1) },
    ]);
    expect(response.results[0]).toMatchObject({ status: 'rejected', code: 'unknown_vehicle' });
    expect(h.deps.positions.recordLatest).not.toHaveBeenCalled();
    expect(h.queued).toEqual([]);
  });

  it('refuses a batch of more than 500 items whole, before any lookup', async () => {
    const h = deps();
    const crumb = { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) };
    await expect(
      ingestLocations(
        h.deps,
        'flt_1',
        Array.from({ length: 501 }, () => crumb),
      ),
    ).rejects.toMatchObject({
      code: 'batch_too_large',
      detail: 'The batch has 501 items; at most 500 are accepted.',
    });
    expect(h.deps.vehicles.get).not.toHaveBeenCalled();
    expect(h.queued).toEqual([]);
  });
});

describe('freshness', () => {
  it('grades by age: live ≤ 5 min, delayed ≤ 30 min, stale beyond', () => {
    expect(freshnessOf(NOW - 5 * 60_000, NOW)).toBe('live');
    expect(freshnessOf(NOW - 5 * 60_000 - 1, NOW)).toBe('delayed');
    expect(freshnessOf(NOW - 30 * 60_000, NOW)).toBe('delayed');
    expect(freshnessOf(NOW - 31 * 60_000, NOW)).toBe('stale');
  });
});
