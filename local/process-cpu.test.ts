import { describe, expect, it } from 'vitest';
import { processCpuMs } from './process-cpu.ts';

describe('processCpuMs', () => {
  it.runIf(process.platform === 'linux')('grows as this process burns CPU', () => {
    const before = processCpuMs(process.pid) as number;
    expect(before).toBeGreaterThan(0);
    // Spin until the reading moves (it has 10 ms resolution); the bound only stops a broken reader.
    const giveUpAt = Date.now() + 10_000;
    let now = before;
    while (now - before < 30 && Date.now() < giveUpAt) now = processCpuMs(process.pid) as number;
    expect(now - before).toBeGreaterThanOrEqual(30);
  });

  it('is undefined without a pid or for a process that does not exist', () => {
    expect(processCpuMs(undefined)).toBeUndefined();
    expect(processCpuMs(2 ** 30)).toBeUndefined();
  });
});
