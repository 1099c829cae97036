import { describe, expect, it } from 'vitest';
import { GUIDANCE_PHASE_VALUES, PHASE_TRANSITIONS } from '#shared/guidance/domain/phases.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import {
  type AnnouncedStop,
  acknowledgeStop,
  endSession,
  type GuidanceStop,
  phaseAsRead,
  phaseForStops,
  skipStop,
  startSession,
  stopSetChange,
} from '#shared/guidance/domain/session.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

const stop = (id: string, overrides: Partial<GuidanceStop> = {}): GuidanceStop => ({
  id,
  stationId: `stn_${id}`,
  name: `Stop ${id}`,
  chain: 'Pilot',
  latitude: 35,
  longitude: -100,
  address: '',
  milesAhead: 120,
  detourMiles: 0.4,
  gallonsToBuy: 80,
  price: 3.459,
  discount: 0.1,
  netPrice: 3.36,
  priceIsStale: false,
  reason: 'cheapest',
  recommendedAtMs: NOW,
  acknowledgedAtMs: null,
  ...overrides,
});

const session = (stops: GuidanceStop[]) => ({
  ...startSession({
    id: 'gd_1',
    vehicleId: 'veh_1',
    destination: { latitude: 39.7, longitude: -105, name: 'Denver' },
    minArrivalFuelPercent: 15,
    nowMs: NOW,
  }),
  stops,
});

const announced = (stationId: string, gallons: number | null, netPrice = 3.36): AnnouncedStop => ({
  stationId,
  gallonsToBuy: gallons,
  netPrice,
});

describe('what counts as a material change of the stop set', () => {
  it('ignores small drifts of gallons and price', () => {
    const before = [announced('a', 80), announced('b', 40)];
    expect(stopSetChange(before, [announced('a', 89.9), announced('b', 31)])).toBeNull();
    // A few cents (a price feed's hourly move) is no news either.
    expect(stopSetChange(before, [announced('a', 80, 3.454), announced('b', 40)])).toBeNull();
  });

  it('announces other stations, another order, a big gallons or price move, and gallons appearing or vanishing', () => {
    const before = [announced('a', 80), announced('b', 40)];
    expect(stopSetChange(before, [announced('a', 80), announced('c', 40)])).toBe('refreshed');
    expect(stopSetChange(before, [announced('b', 40), announced('a', 80)])).toBe('refreshed');
    expect(stopSetChange(before, [announced('a', 80)])).toBe('refreshed');
    expect(
      stopSetChange(before, [announced('a', 80 + GUIDANCE_POLICY.materialGallonsChange), announced('b', 40)]),
    ).toBe('refreshed');
    expect(stopSetChange(before, [announced('a', 80, 3.46), announced('b', 40)])).toBe('refreshed');
    expect(stopSetChange(before, [announced('a', null), announced('b', 40)])).toBe('refreshed');
    expect(stopSetChange([], [announced('a', 80)])).toBe('refreshed');
  });

  it('calls an emptied set cleared, and an empty one staying empty no change', () => {
    expect(stopSetChange([announced('a', 80)], [])).toBe('cleared');
    expect(stopSetChange([], [])).toBeNull();
  });
});

describe('phases', () => {
  it('are approaching within the radius of the first stop, recommended beyond it, no stop without one', () => {
    expect(phaseForStops([stop('1', { milesAhead: GUIDANCE_POLICY.approachRadiusMiles })])).toBe(
      'approaching_stop',
    );
    expect(phaseForStops([stop('1', { milesAhead: GUIDANCE_POLICY.approachRadiusMiles + 0.1 })])).toBe(
      'stop_recommended',
    );
    expect(phaseForStops([])).toBe('no_stop_needed');
  });

  it('read as data_stale once the position is older than the threshold, but never mask an ended session', () => {
    const staleAfter = 30 * 60_000;
    const active = {
      ...session([stop('1')]),
      phase: 'stop_recommended' as const,
      position: { latitude: 35, longitude: -100, recordedAtMs: NOW },
    };
    expect(phaseAsRead(active, NOW + staleAfter)).toBe('stop_recommended');
    expect(phaseAsRead(active, NOW + staleAfter + 1)).toBe('data_stale');
    const arrived = endSession(active, 'arrived', NOW);
    expect(phaseAsRead(arrived, NOW + 10 * staleAfter)).toBe('arrived');
  });

  it('publish every phase in the transitions, and every transition names real phases', () => {
    const targets = new Set(PHASE_TRANSITIONS.map((t) => t.to));
    for (const phase of GUIDANCE_PHASE_VALUES) expect(targets.has(phase)).toBe(true);
    const known = new Set<string>([...GUIDANCE_PHASE_VALUES, '*', '(start)', '(recomputed)']);
    for (const t of PHASE_TRANSITIONS) {
      expect(known.has(t.from)).toBe(true);
      expect(known.has(t.to)).toBe(true);
    }
  });
});

describe('ending a session', () => {
  it('maps each reason to its status and clears the stops', () => {
    const s = session([stop('1')]);
    expect(endSession(s, 'arrived', NOW + 1)).toMatchObject({
      status: 'completed',
      phase: 'arrived',
      stops: [],
      endedAtMs: NOW + 1,
    });
    expect(endSession(s, 'caller_cancelled', NOW)).toMatchObject({
      status: 'cancelled',
      endReason: 'caller_cancelled',
    });
    expect(endSession(s, 'superseded', NOW)).toMatchObject({ status: 'superseded', endReason: 'superseded' });
  });
});

describe('acknowledging and skipping stops', () => {
  it('acknowledges a current stop once; later calls keep the first time', () => {
    const first = acknowledgeStop(session([stop('1'), stop('2')]), '2', NOW + 5);
    if (!first.ok) throw new Error('expected ok');
    expect(first.session.stops.map((s) => s.acknowledgedAtMs)).toEqual([null, NOW + 5]);
    const again = acknowledgeStop(first.session, '2', NOW + 9);
    expect(again.ok && again.session.stops[1]?.acknowledgedAtMs).toBe(NOW + 5);
    expect(acknowledgeStop(first.session, '3', NOW)).toEqual({ ok: false, problem: 'unknown_stop' });
  });

  it('skips a stop: it leaves the list, its station is excluded, a replan is forced; twice is one skip', () => {
    const skipped = skipStop(session([stop('1'), stop('2')]), '1', 'closed', NOW);
    if (!skipped.ok) throw new Error('expected ok');
    expect(skipped.session.stops.map((s) => s.id)).toEqual(['2']);
    expect(skipped.session.skipped).toEqual([
      { stopId: '1', stationId: 'stn_1', name: 'Stop 1', reason: 'closed', skippedAtMs: NOW },
    ]);
    expect(skipped.session.forceReplan).toBe(true);
    const twice = skipStop(skipped.session, '1', 'again', NOW + 1);
    expect(twice.ok && twice.session).toBe(skipped.session);
    expect(acknowledgeStop(skipped.session, '1', NOW)).toEqual({ ok: false, problem: 'stop_skipped' });
    expect(skipStop(skipped.session, '9', null, NOW)).toEqual({ ok: false, problem: 'unknown_stop' });
  });
});
