import { describe, expect, it } from 'vitest';
import { type Simulation, scenarioAppliesAtMs } from '#shared/sandbox/domain/simulation.ts';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const simulation = (lastTickAtMs: number | null, status: Simulation['status'] = 'running'): Simulation => ({
  fleetId: 'flt_twin',
  status,
  simulatedNowMs: NOW,
  lastTickAtMs,
  lastActivityMs: NOW,
  trucks: [],
  generation: 0,
  version: 1,
});

describe('scenarioAppliesAtMs', () => {
  it('is the next tick when it is ahead', () => {
    expect(scenarioAppliesAtMs(simulation(NOW - 20_000), NOW)).toBe(NOW + 40_000);
  });

  it('is now, never the past, when the tick is late', () => {
    expect(scenarioAppliesAtMs(simulation(NOW - 5 * 60_000), NOW)).toBe(NOW);
  });

  it('is a tick interval away before the first tick or while paused', () => {
    expect(scenarioAppliesAtMs(simulation(null), NOW)).toBe(NOW + 60_000);
    expect(scenarioAppliesAtMs(simulation(NOW - 20_000, 'paused'), NOW)).toBe(NOW + 60_000);
  });
});
