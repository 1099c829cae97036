import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import {
  bucketOf,
  DEFAULT_ENUMERATION_GUARD,
  EMPTY_WINDOW,
  type EnumerationWindow,
  nearbyFootprint,
  WINDOW_BUCKETS,
} from '#shared/stations/domain/enumeration-guard.ts';
import type { EnumerationWindowStore } from '#shared/stations/store/enumeration-windows.ts';
import { guardStationQuery } from '#shared/stations/usecases/enumeration-guard.ts';

const NOW = Date.parse('2026-11-23T14:00:00Z');
const principal = { keyId: 'key_1', planName: 'starter' } as Principal;
const footprint = nearbyFootprint({ latitude: 32, longitude: -97 }, 5);
const bucket = bucketOf(NOW, DEFAULT_ENUMERATION_GUARD);

function store(overrides: Partial<EnumerationWindowStore> = {}) {
  return {
    add: vi.fn<EnumerationWindowStore['add']>(async (_key, at, entries) => ({
      kind: 'added',
      window: { ...EMPTY_WINDOW, buckets: new Map([[at, [...entries]]]) },
    })),
    removeBuckets: vi.fn<EnumerationWindowStore['removeBuckets']>(async () => {}),
    block: vi.fn<EnumerationWindowStore['block']>(async () => {}),
    markVetted: vi.fn<EnumerationWindowStore['markVetted']>(async () => {}),
    fleetPositions: vi.fn<EnumerationWindowStore['fleetPositions']>(async () => []),
    ...overrides,
  };
}
const deps = (windows: EnumerationWindowStore) => ({ windows, plan: async () => null, now: () => NOW });

describe('guardStationQuery', () => {
  it('answers an ordinary query with one add to the current bucket, dropping the one that left the window', async () => {
    const windows = store();

    await guardStationQuery(deps(windows), principal, 'flt_1', footprint);

    expect(windows.add).toHaveBeenCalledTimes(1);
    expect(windows.add).toHaveBeenCalledWith(
      'key_1#flt_1',
      bucket,
      [...footprint.anchors, ...footprint.areas],
      bucket - WINDOW_BUCKETS,
      NOW,
      NOW + 15 * 60_000,
    );
    expect(windows.fleetPositions).not.toHaveBeenCalled();
    expect(windows.removeBuckets).not.toHaveBeenCalled();
  });

  it('keeps one window per key and acting fleet: a partner’s fleets never share one', async () => {
    const windows = store();

    await guardStationQuery(deps(windows), principal, 'flt_1', footprint);
    await guardStationQuery(deps(windows), principal, 'flt_2', footprint);

    expect(vi.mocked(windows.add).mock.calls.map((call) => call[0])).toEqual(['key_1#flt_1', 'key_1#flt_2']);
  });

  it('lets the query through when the plan store fails too (fails open)', async () => {
    const windows = store();
    const failingPlan = { ...deps(windows), plan: async () => Promise.reject(new Error('throttled')) };

    await expect(guardStationQuery(failingPlan, principal, 'flt_1', footprint)).resolves.toBeUndefined();
    expect(windows.add).not.toHaveBeenCalled();
  });

  it('lets the query through when DynamoDB fails (fails open)', async () => {
    const windows = store({ add: vi.fn(async () => Promise.reject(new Error('throttled'))) });

    await expect(guardStationQuery(deps(windows), principal, 'flt_1', footprint)).resolves.toBeUndefined();
  });

  it('refuses a key cooling down with the figures of the window that tripped it, without reading the fleet', async () => {
    const cooling: EnumerationWindow = {
      ...EMPTY_WINDOW,
      blockedUntilMs: NOW + 60_000,
      blockedFinding: { rule: 'lattice', limit: 30, used: 31 },
    };
    const windows = store({ add: vi.fn(async () => ({ kind: 'held' as const, window: cooling })) });

    const error = await guardStationQuery(deps(windows), principal, 'flt_1', footprint).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({
      code: 'enumeration_suspected',
      status: 403,
      extensions: { limit: 30, used: 31 },
    });
    expect(windows.fleetPositions).not.toHaveBeenCalled();
  });

  it('answers a vetted key without recording or judging anything', async () => {
    const vetted: EnumerationWindow = { ...EMPTY_WINDOW, vettedUntilMs: NOW + 60_000 };
    const windows = store({ add: vi.fn(async () => ({ kind: 'held' as const, window: vetted })) });

    await expect(guardStationQuery(deps(windows), principal, 'flt_1', footprint)).resolves.toBeUndefined();
    expect(windows.fleetPositions).not.toHaveBeenCalled();
    expect(windows.markVetted).not.toHaveBeenCalled();
  });

  it('removes the buckets a quiet key left behind', async () => {
    const windows = store({
      add: vi.fn(async (_key: string, at: number, entries: readonly string[]) => ({
        kind: 'added' as const,
        window: {
          ...EMPTY_WINDOW,
          buckets: new Map([
            [at - 40, ['320:-970']],
            [at - 9, ['321:-970']],
            [at, [...entries]],
          ]),
        },
      })),
    });

    await guardStationQuery(deps(windows), principal, 'flt_1', footprint);

    expect(windows.removeBuckets).toHaveBeenCalledWith('key_1#flt_1', [bucket - 40, bucket - 9]);
  });
});
