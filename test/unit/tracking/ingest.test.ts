import { describe, expect, it, vi } from 'vitest';
import type { IngestTally } from '#shared/integration-health/domain/ingest-tally.ts';
import { newId } from '#shared/kernel/ids.ts';
import { freshnessOf } from '#shared/tracking/domain/freshness.ts';
import type { PositionFix } from '#shared/tracking/domain/positions.ts';
import type { PrefetchedPosition, RecordOutcome } from '#shared/tracking/store/vehicle-positions.ts';
import { INGEST_STORAGE_CONCURRENCY, ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';

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
        // As the store: the ids found, each once, in one read.
        getMany: vi.fn(async (_fleet: string, ids: readonly string[]) => {
          const found = new Map<string, Vehicle>();
          for (const id of ids) {
            const stored = byId.get(id);
            if (stored) found.set(id, stored);
          }
          return found;
        }),
        idForExternalRef: vi.fn(async (_fleet: string, ref: string) => (ref === 'TRUCK-B' ? B : null)),
      },
      positions: {
        // One batch read of the vehicles' items: each vehicle's as the store would hand it over.
        prefetch: vi.fn(
          async (_fleet: string, ids: readonly string[]) =>
            new Map<string, PrefetchedPosition>(ids.map((id) => [id, { item: { sk: `VEHPOS#${id}` } }])),
        ),
        // What the store does when everything goes well: all stored, the newest one is the latest.
        record: vi.fn(
          async (
            _fleet: string,
            id: string,
            fixes: readonly PositionFix[],
            _prefetched?: PrefetchedPosition,
          ): Promise<RecordOutcome> => {
            history[id] = [...(history[id] ?? []), ...fixes];
            const newest = fixes.reduce((a, b) => (b.recordedAtMs > a.recordedAtMs ? b : a));
            if ((latest.get(id)?.recordedAtMs ?? -1) < newest.recordedAtMs) latest.set(id, newest);
            return { retry: [], hourFull: [] };
          },
        ),
      },
      vehicleUpdates: {
        send: vi.fn(async (messages: readonly { fleetId: string; vehicleId: string }[]) => {
          queued.push(...messages);
        }),
      },
      healthCounters: {
        recordIngest: vi.fn(async (_fleet: string, _atMs: number, _tally: IngestTally) => {}),
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
    // One health counter write for the whole request: A's 9-minute gap, B's 3-minute one.
    expect(h.deps.healthCounters.recordIngest).toHaveBeenCalledTimes(1);
    expect(h.deps.healthCounters.recordIngest).toHaveBeenCalledWith('flt_1', NOW, {
      accepted: 4,
      withLevel: 0,
      rejected: 0,
      gapMsSum: 12 * 60_000,
      gapCount: 2,
    });
  });

  it('reads the vehicles’ position items in one prefetch and hands each vehicle its own to record', async () => {
    const h = deps();
    await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) },
      { external_ref: 'TRUCK-B', latitude: 3, longitude: 3, recorded_at: at(5) },
      { vehicle_id: A, latitude: 2, longitude: 2, recorded_at: at(10) },
      { vehicle_id: Z, latitude: 2, longitude: 2, recorded_at: at(10) },
    ]);
    expect(h.deps.positions.prefetch).toHaveBeenCalledTimes(1);
    expect([...(h.deps.positions.prefetch.mock.calls[0]?.[1] ?? [])].sort()).toEqual([A, B].sort());
    for (const [, id, , prefetched] of h.deps.positions.record.mock.calls) {
      expect(prefetched).toEqual({ item: { sk: `VEHPOS#${id}` } });
    }
    expect(h.deps.positions.record).toHaveBeenCalledTimes(2);
  });

  it('stores everything when the prefetch fails: each vehicle then reads its own item', async () => {
    const h = deps();
    h.deps.positions.prefetch.mockRejectedValueOnce(new Error('throttled'));
    const response = await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) },
      { vehicle_id: B, latitude: 3, longitude: 3, recorded_at: at(5) },
    ]);
    expect(response).toMatchObject({ accepted: 2, rejected: 0 });
    expect(h.deps.positions.record.mock.calls.map((call) => call[3])).toEqual([undefined, undefined]);
  });

  it('writes nothing for a batch of rejected rows', async () => {
    const h = deps();
    const response = await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: Z, latitude: 1, longitude: 1, recorded_at: at(1) },
    ]);
    expect(response.results[0]).toMatchObject({ status: 'rejected', code: 'unknown_vehicle' });
    expect(h.deps.positions.record).not.toHaveBeenCalled();
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
    expect(h.deps.vehicles.getMany).not.toHaveBeenCalled();
    expect(h.queued).toEqual([]);
  });
});

describe('ingestLocations: a rejected item is shaped like a 422 for it alone', () => {
  it('carries code, hint and the offending fields, paths relative to the item', async () => {
    // Prepare
    const h = deps();

    // Act
    const response = await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: A, latitude: 95, recorded_at: 'yesterday', speed_mph: 400, colour: 'red' },
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) },
    ]);

    // Assess
    expect(response).toMatchObject({ accepted: 1, rejected: 1 });
    expect(response.results[0]).toEqual({
      index: 0,
      status: 'rejected',
      code: 'validation_failed',
      hint: 'fix the fields in `errors`',
      errors: [
        { field: 'latitude', message: 'must be between -90 and 90 degrees' },
        { field: 'longitude', message: 'is required: latitude and longitude are required together' },
        { field: 'recorded_at', message: 'must be an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z' },
        { field: 'speed_mph', message: 'must be between 0 and 120 mph' },
        { field: 'colour', message: 'is not a recognized field' },
      ],
    });
  });

  it('says per row what is wrong with a recorded_at that is not RFC 3339', async () => {
    // Prepare
    const h = deps();

    // Act
    const response = await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: '2026-11-21T11:59:00' },
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: 1_795_262_340_000 },
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: '1795262340' },
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) },
    ]);

    // Assess
    expect(response).toMatchObject({ accepted: 1, rejected: 3 });
    expect(response.results.slice(0, 3).map((row) => ('errors' in row ? row.errors : row.status))).toEqual([
      [
        {
          field: 'recorded_at',
          message:
            'has no UTC offset: end it with Z (UTC) or the offset of its time zone, e.g. 2026-11-21T11:59:00Z or 2026-11-21T11:59:00-06:00',
        },
      ],
      [
        {
          field: 'recorded_at',
          message:
            'looks like epoch milliseconds (2026-11-21T11:59:00.000Z); send an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z',
        },
      ],
      [
        {
          field: 'recorded_at',
          message:
            'looks like epoch seconds (2026-11-21T11:59:00.000Z); send an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z',
        },
      ],
    ]);
  });

  it('says which vehicle is unknown or inactive, with the registry code and a next step', async () => {
    // Prepare
    const h = deps();
    h.deps.vehicles.getMany.mockImplementation(
      async (_fleet: string, ids: readonly string[]) =>
        new Map(ids.includes(A) ? [[A, vehicle(A, 'inactive')]] : []),
    );

    // Act
    const response = await ingestLocations(h.deps, 'flt_1', [
      { external_ref: 'NOPE', latitude: 1, longitude: 1, recorded_at: at(1) },
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) },
    ]);

    // Assess
    expect(response.results).toEqual([
      {
        index: 0,
        status: 'rejected',
        code: 'unknown_vehicle',
        hint: 'no vehicle with external_ref NOPE in this fleet; create it with POST /v1/vehicles or check the id',
      },
      {
        index: 1,
        status: 'rejected',
        code: 'vehicle_inactive',
        hint: `vehicle ${A} is deactivated; reactivate it with POST /v1/vehicles/${A}/reactivate`,
      },
    ]);
  });
});

describe('ingestLocations: recorded_at window', () => {
  it('rejects a breadcrumb older than the 90 days of history, or more than 5 minutes ahead, saying why', async () => {
    const h = deps();
    const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString();
    const response = await ingestLocations(h.deps, 'flt_1', [
      { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: daysAgo(90.01) },
      { vehicle_id: A, latitude: 2, longitude: 2, recorded_at: daysAgo(89.99) },
      { vehicle_id: A, latitude: 3, longitude: 3, recorded_at: new Date(NOW + 5 * 60_000).toISOString() },
      {
        vehicle_id: A,
        latitude: 4,
        longitude: 4,
        recorded_at: new Date(NOW + 5 * 60_000 + 1000).toISOString(),
      },
    ]);
    expect(response.results.map((r) => [r.status, 'code' in r ? r.code : undefined])).toEqual([
      ['rejected', 'validation_failed'],
      ['accepted', undefined],
      ['accepted', undefined],
      ['rejected', 'validation_failed'],
    ]);
    // Shaped like a 422 for the item alone: the field and why, and what to do.
    expect(response.results[0]).toEqual({
      index: 0,
      status: 'rejected',
      code: 'validation_failed',
      hint: 'drop this item, or check the device clock (UTC)',
      errors: [
        { field: 'recorded_at', message: 'is more than 90 days old, beyond the position history kept' },
      ],
    });
    expect(response.results[3]).toEqual({
      index: 3,
      status: 'rejected',
      code: 'validation_failed',
      hint: 'check the device clock (UTC); fix recorded_at and resend this item',
      errors: [{ field: 'recorded_at', message: 'is more than 5 minutes in the future' }],
    });
    expect(h.history[A]?.map((f) => f.latitude)).toEqual([2, 3]);
  });
});

describe('ingestLocations: vehicle lookups', () => {
  const crumb = (id: string, minutesAgo = 1) => ({
    vehicle_id: id,
    latitude: 1,
    longitude: 1,
    recorded_at: at(minutesAgo),
  });

  it('reads every distinct vehicle, by id or by resolved external_ref, in one batch read', async () => {
    const h = deps();
    const response = await ingestLocations(h.deps, 'flt_1', [
      crumb(A, 3),
      crumb(B, 3),
      crumb(A, 2),
      { external_ref: 'TRUCK-B', latitude: 1, longitude: 1, recorded_at: at(1) },
      { external_ref: 'NOPE', latitude: 1, longitude: 1, recorded_at: at(1) },
    ]);
    expect(response).toMatchObject({ accepted: 4, rejected: 1 });
    expect(h.deps.vehicles.getMany).toHaveBeenCalledTimes(1);
    const [fleetId, ids] = h.deps.vehicles.getMany.mock.calls[0] ?? [];
    expect(fleetId).toBe('flt_1');
    expect(new Set(ids)).toEqual(new Set([A, B]));
    expect(h.deps.vehicles.idForExternalRef).toHaveBeenCalledTimes(2);
  });

  it('resolves external refs a bounded number at a time', async () => {
    const h = deps();
    let inFlight = 0;
    let most = 0;
    h.deps.vehicles.idForExternalRef.mockImplementation(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      return null;
    });
    const many = Array.from({ length: 80 }, (_, index) => ({
      external_ref: `REF-${index}`,
      latitude: 1,
      longitude: 1,
      recorded_at: at(1),
    }));
    const answer = await ingestLocations(h.deps, 'flt_1', many);
    expect(answer.rejected).toBe(80);
    expect(most).toBe(INGEST_STORAGE_CONCURRENCY);
    // Nothing resolved: no vehicle read at all.
    expect(h.deps.vehicles.getMany).not.toHaveBeenCalled();
  });

  it('fails the request when the vehicle read fails', async () => {
    const h = deps();
    h.deps.vehicles.getMany.mockRejectedValue(new Error('throttled'));
    await expect(ingestLocations(h.deps, 'flt_1', [crumb(A), crumb(B)])).rejects.toThrow('throttled');
    expect(h.deps.positions.record).not.toHaveBeenCalled();
    expect(h.queued).toEqual([]);
  });
});

describe('ingestLocations: storage failures', () => {
  const crumb = (id: string, minutesAgo: number, latitude: number) => ({
    vehicle_id: id,
    latitude,
    longitude: 1,
    recorded_at: at(minutesAgo),
  });

  it('rejects the items of a vehicle storage failed for as retryable, accepts and queues the rest', async () => {
    const h = deps();
    const stores = h.deps.positions.record.getMockImplementation();
    h.deps.positions.record.mockImplementation(async (fleet, id, fixes) => {
      if (id === A)
        throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
      return (stores as NonNullable<typeof stores>)(fleet, id, fixes);
    });
    const response = await ingestLocations(h.deps, 'flt_1', [
      crumb(A, 2, 1),
      crumb(B, 2, 2),
      crumb(A, 1, 3),
      crumb(Z, 1, 4),
    ]);
    expect(response).toMatchObject({ accepted: 1, rejected: 3 });
    expect(response.results.map((r) => [r.index, r.status, 'code' in r ? r.code : undefined])).toEqual([
      [0, 'rejected', 'storage_unavailable'],
      [1, 'accepted', undefined],
      [2, 'rejected', 'storage_unavailable'],
      [3, 'rejected', 'unknown_vehicle'],
    ]);
    expect(response.results[0]).toMatchObject({ hint: expect.stringContaining('retry these items') });
    // Only what was stored reaches the worker.
    expect([...h.latest.keys()]).toEqual([B]);
    expect(h.queued).toEqual([
      { fleetId: 'flt_1', vehicleId: B, vehicle: expect.objectContaining({ id: B }) },
    ]);
    // The health counters count what the client was told: 1 accepted, 3 rejected.
    expect(h.deps.healthCounters.recordIngest).toHaveBeenCalledWith(
      'flt_1',
      NOW,
      expect.objectContaining({ accepted: 1, rejected: 3 }),
    );
  });

  it('still answers when the health counters cannot be written', async () => {
    const h = deps();
    h.deps.healthCounters.recordIngest.mockRejectedValue(new Error('throttled'));
    const response = await ingestLocations(h.deps, 'flt_1', [crumb(A, 2, 1)]);
    expect(response).toMatchObject({ accepted: 1, rejected: 0 });
    expect(h.queued).toEqual([
      { fleetId: 'flt_1', vehicleId: A, vehicle: expect.objectContaining({ id: A }) },
    ]);
  });

  it('rejects exactly the breadcrumbs the store could not store, as retryable, and keeps the rest accepted', async () => {
    const h = deps();
    h.deps.positions.record.mockImplementation(async (_fleet, _id, fixes) => ({
      retry: fixes.filter((f) => f.latitude >= 2),
      hourFull: [],
    }));
    const response = await ingestLocations(h.deps, 'flt_1', [
      crumb(A, 90, 1),
      crumb(A, 70, 2),
      crumb(A, 1, 4),
    ]);
    expect(response).toMatchObject({ accepted: 1, rejected: 2 });
    expect(response.results.map((r) => [r.status, 'code' in r ? r.code : undefined])).toEqual([
      ['accepted', undefined],
      ['rejected', 'storage_unavailable'],
      ['rejected', 'storage_unavailable'],
    ]);
    expect(h.queued).toEqual([
      { fleetId: 'flt_1', vehicleId: A, vehicle: expect.objectContaining({ id: A }) },
    ]);
  });

  it('rejects breadcrumbs beyond a full hour as not retryable', async () => {
    const h = deps();
    h.deps.positions.record.mockImplementation(async (_fleet, _id, fixes) => ({
      retry: [],
      hourFull: fixes.filter((f) => f.latitude === 2),
    }));
    const response = await ingestLocations(h.deps, 'flt_1', [
      crumb(A, 30, 1),
      crumb(A, 20, 2),
      crumb(A, 1, 3),
    ]);
    expect(response).toMatchObject({ accepted: 2, rejected: 1 });
    expect(response.results[1]).toMatchObject({
      status: 'rejected',
      code: 'validation_failed',
      hint: expect.stringContaining('do not resend it'),
      errors: [
        {
          field: 'recorded_at',
          message: expect.stringContaining('already holds 2,400,000 breadcrumbs for this vehicle'),
        },
      ],
    });

    // Nothing else in the batch: still not a 503 (a retry cannot store them).
    const alone = deps();
    alone.deps.positions.record.mockImplementation(async (_fleet, _id, fixes) => ({
      retry: [],
      hourFull: [...fixes],
    }));
    const only = await ingestLocations(alone.deps, 'flt_1', [crumb(A, 20, 2)]);
    expect(only.results).toEqual([
      expect.objectContaining({ status: 'rejected', code: 'validation_failed' }),
    ]);
    expect(alone.queued).toEqual([]);
  });

  it('answers 503 storage_unavailable for the whole request only when nothing could be stored', async () => {
    const h = deps();
    h.deps.positions.record.mockRejectedValue(new Error('throttled'));
    await expect(
      ingestLocations(h.deps, 'flt_1', [crumb(A, 2, 1), crumb(B, 2, 2), crumb(Z, 1, 3)]),
    ).rejects.toMatchObject({ code: 'storage_unavailable', status: 503 });
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

describe('ingestLocations: a bounded answer', () => {
  it('lists at most 10 field errors per rejected item, then counts them', async () => {
    // Prepare: one item with 1,000 unknown fields.
    const item: Record<string, unknown> = { vehicle_id: A, latitude: 1, longitude: 1, recorded_at: at(1) };
    for (let index = 0; index < 1000; index += 1) item[`extra_${index}`] = index;

    // Act
    const response = await ingestLocations(deps().deps, 'flt_1', [item]);

    // Assess
    expect(response.results[0]).toMatchObject({
      status: 'rejected',
      code: 'validation_failed',
      errors_truncated: true,
      error_count: 1000,
    });
    const [result] = response.results;
    expect(result?.status === 'rejected' ? result.errors : undefined).toHaveLength(10);
  });
});
