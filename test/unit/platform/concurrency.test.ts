import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from '#shared/platform/concurrency.ts';

describe('concurrencyLimit', () => {
  it('runs at most the limit at once, every task to its end, failures only for their own caller', async () => {
    const limited = concurrencyLimit(3);
    let running = 0;
    let most = 0;
    const task = (index: number) =>
      limited(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 2 + (index % 4)));
        running -= 1;
        if (index === 5) throw new Error('task 5 failed');
        return index * 10;
      });
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, index) => task(index)));
    expect(most).toBe(3);
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'))).toEqual([
      0,
      10,
      20,
      30,
      40,
      'failed',
      60,
      70,
      80,
      90,
      100,
      110,
    ]);
    // The slot a failure freed is reused: nothing is left waiting.
    expect(await task(1)).toBe(10);
  });
});
