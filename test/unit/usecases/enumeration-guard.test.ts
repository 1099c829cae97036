import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../../shared/domain/api-keys.ts';
import { EMPTY_WINDOW, type EnumerationWindow } from '../../../shared/domain/stations/enumeration-guard.ts';
import type { EnumerationWindowStore } from '../../../shared/store/enumeration-windows.ts';
import { guardStationQuery } from '../../../shared/usecases/enumeration-guard.ts';

const NOW = Date.parse('2026-11-23T14:00:00Z');
const principal = { keyId: 'key_1', planName: 'starter' } as Principal;
const point = [{ latitude: 32, longitude: -97 }];

function store(overrides: Partial<EnumerationWindowStore> = {}) {
  return {
    append: vi.fn<EnumerationWindowStore['append']>(async (_key, visits) => ({
      kind: 'appended',
      window: { ...EMPTY_WINDOW, visits: [...visits] },
      storedVisits: visits.length,
    })),
    prune: vi.fn<EnumerationWindowStore['prune']>(async () => true),
    block: vi.fn<EnumerationWindowStore['block']>(async () => {}),
    markVetted: vi.fn<EnumerationWindowStore['markVetted']>(async () => {}),
    fleetPositions: vi.fn<EnumerationWindowStore['fleetPositions']>(async () => []),
    ...overrides,
  };
}
const deps = (windows: EnumerationWindowStore) => ({ windows, plan: async () => null, now: () => NOW });

describe('guardStationQuery', () => {
  it('answers an ordinary query with one append and nothing else', async () => {
    const windows = store();

    await guardStationQuery(deps(windows), principal, 'flt_1', point);

    expect(windows.append).toHaveBeenCalledTimes(1);
    expect(windows.fleetPositions).not.toHaveBeenCalled();
    expect(windows.prune).not.toHaveBeenCalled();
  });

  it('keeps one window per key and acting fleet: a partner’s fleets never share one', async () => {
    const windows = store();

    await guardStationQuery(deps(windows), principal, 'flt_1', point);
    await guardStationQuery(deps(windows), principal, 'flt_2', point);

    expect(vi.mocked(windows.append).mock.calls.map((call) => call[0])).toEqual([
      'key_1#flt_1',
      'key_1#flt_2',
    ]);
  });

  it('lets the query through when the plan store fails too (fails open)', async () => {
    const windows = store();
    const failingPlan = { ...deps(windows), plan: async () => Promise.reject(new Error('throttled')) };

    await expect(guardStationQuery(failingPlan, principal, 'flt_1', point)).resolves.toBeUndefined();
    expect(windows.append).not.toHaveBeenCalled();
  });

  it('lets the query through when DynamoDB fails (fails open)', async () => {
    const windows = store({ append: vi.fn(async () => Promise.reject(new Error('throttled'))) });

    await expect(guardStationQuery(deps(windows), principal, 'flt_1', point)).resolves.toBeUndefined();
  });

  it('refuses a key cooling down without reading the fleet', async () => {
    const cooling: EnumerationWindow = { ...EMPTY_WINDOW, blockedUntilMs: NOW + 60_000 };
    const windows = store({ append: vi.fn(async () => ({ kind: 'blocked' as const, window: cooling })) });

    const error = await guardStationQuery(deps(windows), principal, 'flt_1', point).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'enumeration_suspected', status: 403 });
    expect(windows.fleetPositions).not.toHaveBeenCalled();
  });

  it('prunes once enough stale visits pile up, expecting the list it read', async () => {
    const stale = Array.from({ length: 60 }, () => ({ cell: '320:-970', atMs: NOW - 3_600_000 }));
    const windows = store({
      append: vi.fn(async (_key: string, visits: readonly { cell: string; atMs: number }[]) => ({
        kind: 'appended' as const,
        window: { ...EMPTY_WINDOW, visits: [...stale, ...visits] },
        storedVisits: 61,
      })),
    });

    await guardStationQuery(deps(windows), principal, 'flt_1', point);

    expect(windows.prune).toHaveBeenCalledWith('key_1#flt_1', [{ cell: '320:-970', atMs: NOW }], 61);
  });
});
