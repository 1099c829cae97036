import { describe, expect, it } from 'vitest';
import { ttlMemo } from '#shared/platform/ttl-memo.ts';

describe('ttlMemo', () => {
  it('loads once per key for its time to live, then again; shares a load in flight; forgets failures', async () => {
    let nowMs = 0;
    const remember = ttlMemo<string>(60_000, () => nowMs, 2);
    let loads = 0;
    const load = (value: string) => async () => {
      loads += 1;
      return value;
    };
    const [a, b] = await Promise.all([remember('k', load('v1')), remember('k', load('v2'))]);
    expect([a, b, loads]).toEqual(['v1', 'v1', 1]);
    nowMs = 59_999;
    expect(await remember('k', load('v3'))).toBe('v1');
    nowMs = 60_000;
    expect(await remember('k', load('v4'))).toBe('v4');

    await expect(remember('bad', async () => Promise.reject(new Error('throttled')))).rejects.toThrow(
      'throttled',
    );
    expect(await remember('bad', load('recovered'))).toBe('recovered');

    // Past two entries the oldest goes: 'k' is loaded again.
    await remember('third', load('t'));
    const before = loads;
    expect(await remember('k', load('v5'))).toBe('v5');
    expect(loads).toBe(before + 1);
  });
});
