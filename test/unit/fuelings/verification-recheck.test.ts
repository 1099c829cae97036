import { describe, expect, it } from 'vitest';
import { VERIFICATION_POLICY } from '#shared/fuelings/domain/verification.ts';
import {
  type PendingVerification,
  RECHECK_POLICY,
  recheckStep,
  recheckWindow,
  withPending,
} from '#shared/fuelings/domain/verification-recheck.ts';

const MIN = 60_000;
/** The purchase: 12:00 UTC; its window 11:00–13:00. */
const FUELED_AT = '2026-11-10T12:00:00.000000Z';
const T0 = Date.parse(FUELED_AT);
const at = (minutes: number) => T0 + minutes * MIN;

const pending = (overrides: Partial<PendingVerification> = {}): PendingVerification => ({
  fuelingId: 'fuel_a',
  fueledAt: FUELED_AT,
  heard: false,
  ...overrides,
});

describe('the re-check window', () => {
  it('is fueled_at ± the widest window the rules read (60 min)', () => {
    expect(RECHECK_POLICY.windowMinutes).toBe(VERIFICATION_POLICY.levelWindowMinutes);
    expect(recheckWindow(pending())).toEqual({ fromMs: at(-60), toMs: at(60) });
  });
});

describe('recheckStep', () => {
  it('re-checks when the batch holds a breadcrumb inside the window and the newest is at its end', () => {
    const step = recheckStep([pending()], [at(-70), at(-5), at(60)], at(60));
    expect(step.due).toEqual([pending({ heard: true })]);
    expect(step.waiting).toEqual([]);
  });

  it('counts the window’s edges as inside it', () => {
    expect(recheckStep([pending()], [at(-60)], at(60)).due).toHaveLength(1);
    expect(recheckStep([pending()], [at(60)], at(60)).due).toHaveLength(1);
    expect(recheckStep([pending()], [at(-61), at(61)], at(61)).due).toHaveLength(0);
  });

  it('waits while the newest breadcrumb is before the window’s end, remembering what it heard', () => {
    const step = recheckStep([pending()], [at(-20), at(59)], at(59));
    expect(step.due).toEqual([]);
    expect(step.waiting).toEqual([pending({ heard: true })]);
  });

  it('re-checks a purchase heard by an earlier batch once a later one (outside the window) reaches its end', () => {
    // A live truck: the window's breadcrumbs came one a cycle, the one past its end alone.
    const step = recheckStep([pending({ heard: true })], [at(75)], at(75));
    expect(step.due).toEqual([pending({ heard: true })]);
  });

  it('drops a purchase whose window passed without a breadcrumb inside it: later ones are newer still', () => {
    const step = recheckStep([pending()], [at(61), at(90)], at(90));
    expect(step).toEqual({ due: [], waiting: [] });
  });

  it('judges on recorded times alone: a day in one burst and the same day a breadcrumb a batch agree', () => {
    const day = [-90, -45, -10, 0, 10, 45, 65, 80].map(at);
    const burst = recheckStep([pending()], day, at(80));
    let live: ReturnType<typeof recheckStep> = { due: [], waiting: [pending()] };
    const dueLive: PendingVerification[] = [];
    for (const atMs of day) {
      live = recheckStep(live.waiting, [atMs], atMs);
      dueLive.push(...live.due);
    }
    expect(burst.due).toEqual([pending({ heard: true })]);
    expect(dueLive).toEqual(burst.due);
  });

  it('a purchase is due once: once due, it is no longer waiting', () => {
    const first = recheckStep([pending()], [at(0), at(60)], at(60));
    expect(first.due).toHaveLength(1);
    expect(recheckStep(first.waiting, [at(0), at(61)], at(61)).due).toEqual([]);
  });

  it('judges each purchase on its own window', () => {
    const morning = pending({ fuelingId: 'fuel_m', fueledAt: '2026-11-10T08:00:00.000000Z' });
    const noon = pending({ fuelingId: 'fuel_n' });
    const step = recheckStep([morning, noon], [Date.parse('2026-11-10T08:30:00Z'), at(10)], at(10));
    expect(step.due.map((p) => p.fuelingId)).toEqual(['fuel_m']);
    expect(step.waiting).toEqual([pending({ fuelingId: 'fuel_n', heard: true })]);
  });
});

describe('withPending', () => {
  it('adds a purchase once: one already waiting keeps what it heard', () => {
    const list = withPending([pending({ heard: true })], { fuelingId: 'fuel_a', fueledAt: FUELED_AT });
    expect(list).toEqual([pending({ heard: true })]);
  });

  it('keeps the newest 20 by fueled_at', () => {
    let list: PendingVerification[] = [];
    for (let i = 0; i < 25; i++) {
      const fueledAt = new Date(T0 + i * 3_600_000).toISOString().replace('Z', '000Z');
      list = withPending(list, { fuelingId: `fuel_${i}`, fueledAt });
    }
    expect(list).toHaveLength(RECHECK_POLICY.maxPending);
    expect(list[0]?.fuelingId).toBe('fuel_24');
    expect(list.at(-1)?.fuelingId).toBe('fuel_5');
  });
});
