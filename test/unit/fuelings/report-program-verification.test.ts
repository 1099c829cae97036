import { describe, expect, it } from 'vitest';
import { reportPeriod } from '#shared/fuelings/domain/period.ts';
import {
  addFigures,
  fuelingFigures,
  NO_FIGURES,
  publishFigures,
  publishProgramSpend,
  verdictChangeFigures,
  verificationCounts,
} from '#shared/fuelings/domain/savings.ts';
import { MAX_EXCEPTIONS, report } from '#shared/reports/usecases/savings-report.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';

/** A card purchase of 100 gal at $3.40 net ($340.00), recorded with no program side and no verdict. */
function purchase(overrides: Partial<Fueling> = {}): Fueling {
  return {
    id: 'fuel_1',
    vehicleId: 'veh_1',
    source: 'reported',
    gallons: 100,
    fueledAt: '2026-11-10T12:00:00.000000Z',
    latitude: 35,
    longitude: -97,
    fuelLevelBeforePercent: null,
    fuelLevelAfterPercent: null,
    guidanceId: null,
    stopId: null,
    stationId: 'stn_1',
    createdAt: '2026-11-10T12:05:00.000000Z',
    price: 3.6,
    discount: 0.2,
    netPrice: 3.4,
    taxTreatment: 'pump',
    ...overrides,
  };
}

const verdict = (status: StoredVerification['status']): StoredVerification => ({
  status,
  reasons:
    status === 'flagged'
      ? [{ code: 'exceeds_tank_size', detail: '180 gal is more than the vehicle’s 100 gal tank.' }]
      : [],
  checkedAt: '2026-11-10T12:05:00.000000Z',
  rechecked: false,
});

const sum = (fills: Fueling[]) => fills.map(fuelingFigures).reduce(addFigures, NO_FIGURES);

const period = (
  reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, Date.UTC(2026, 11, 5)) as {
    ok: true;
    period: never;
  }
).period;

describe('the fuel program section', () => {
  it('splits fills, gallons and pump spend by the side each was recorded on (hand-computed)', () => {
    const figures = sum([
      // In: 100 gal, $340.00; 50 gal, total $171.25.
      purchase({ id: 'fuel_a', inFuelProgram: true }),
      purchase({ id: 'fuel_b', inFuelProgram: true, gallons: 50, totalUsd: 171.25 }),
      // Off: 80.5 gal at $3.40 = $273.70.
      purchase({ id: 'fuel_c', inFuelProgram: false, gallons: 80.5 }),
      // Unknown: a detection at no station (unpriced), and a fill under rule none (null).
      purchase({ id: 'fuel_d', source: 'detected', netPrice: null, price: null, gallons: 60.25 }),
      purchase({ id: 'fuel_e', inFuelProgram: null, gallons: 20 }),
    ]);
    expect(publishProgramSpend(figures)).toEqual({
      in_program: { fills: 2, gallons: 150, spend_usd: 511.25 },
      off_program: { fills: 1, gallons: 80.5, spend_usd: 273.7 },
      // 60.25 gal unpriced + 20 gal at $3.40 = $68.00.
      unknown: { fills: 2, gallons: 80.25, spend_usd: 68 },
    });
  });
  it('a detection merged into a reported fill counts on neither side: the report counts the reported one', () => {
    const merged = purchase({ source: 'detected', linkedFuelingId: 'fuel_2', inFuelProgram: true });
    expect(publishProgramSpend(fuelingFigures(merged)).in_program.fills).toBe(0);
  });
  it('the three sides’ gallons add up to totals.gallons exactly, where rounding each alone would not', () => {
    // In 1.005 + off 1.005 + unknown 2.005 = 4.015 gal: totals.gallons 4.02 (Math.round(401.5)).
    // Alone: 1.01 + 1.01 + 2.01 = 4.03. Floors 1.00 + 1.00 + 2.00 leave 2 hundredths, to the first
    // two of the equal remainders (in, off): 1.01 + 1.01 + 2.00.
    const figures = {
      ...NO_FIGURES,
      fuelings: 3,
      milliGallons: 4015,
      inProgramFuelings: 1,
      inProgramMilliGallons: 1005,
      offProgramFuelings: 1,
      offProgramMilliGallons: 1005,
    };
    const spend = publishProgramSpend(figures);
    expect(publishFigures(figures).gallons).toBe(4.02);
    expect([spend.in_program.gallons, spend.off_program.gallons, spend.unknown.gallons]).toEqual([
      1.01, 1.01, 2,
    ]);
    // With no unknown fill, the unknown side stays 0: 1.005 + 1.005 = 2.01 total → 1.01 + 1.00.
    const known = { ...figures, fuelings: 2, milliGallons: 2010 };
    const split = publishProgramSpend(known);
    expect(publishFigures(known).gallons).toBe(2.01);
    expect([split.in_program.gallons, split.off_program.gallons, split.unknown.gallons]).toEqual([
      1.01, 1, 0,
    ]);
  });
  it('a day element written before the program figures reads its fills as unknown', () => {
    const old = { ...NO_FIGURES, fuelings: 3, milliGallons: 240_000, spendCents: 81_600 };
    expect(publishProgramSpend(old)).toEqual({
      in_program: { fills: 0, gallons: 0, spend_usd: 0 },
      off_program: { fills: 0, gallons: 0, spend_usd: 0 },
      unknown: { fills: 3, gallons: 240, spend_usd: 816 },
    });
  });
});

describe('the verification section', () => {
  it('counts reported purchases by verdict; one without a verdict is not checked; detections are not purchases', () => {
    const figures = sum([
      purchase({ id: 'fuel_a', verification: verdict('verified') }),
      purchase({ id: 'fuel_b', verification: verdict('verified') }),
      purchase({ id: 'fuel_c', verification: verdict('unverified') }),
      purchase({ id: 'fuel_d', verification: verdict('flagged') }),
      purchase({ id: 'fuel_e' }),
      purchase({ id: 'fuel_f', source: 'detected', verification: null }),
    ]);
    expect(verificationCounts(figures)).toEqual({ verified: 2, unverified: 1, flagged: 1, not_checked: 1 });
  });
  it('a re-checked verdict moves its purchase from unverified to its new count, once', () => {
    const before = purchase({ verification: verdict('unverified') });
    const after = { ...before, verification: { ...verdict('flagged'), rechecked: true } };
    const change = verdictChangeFigures(before, after);
    expect(change).toEqual({ ...NO_FIGURES, unverifiedFuelings: -1, flaggedFuelings: 1 });
    expect(verificationCounts(addFigures(fuelingFigures(before), change))).toEqual({
      verified: 0,
      unverified: 0,
      flagged: 1,
      not_checked: 0,
    });
  });
});

describe('the report’s sections', () => {
  const flagged = (id: string, fueledAt: string): Fueling =>
    purchase({ id, fueledAt, gallons: 180, verification: verdict('flagged') });

  it('lists the flagged purchases given, with their reasons, and says whether more were flagged', () => {
    const figures = sum([
      flagged('fuel_new', '2026-11-12T08:00:00.000000Z'),
      flagged('fuel_old', '2026-11-03T08:00:00.000000Z'),
      purchase({ id: 'fuel_ok', verification: verdict('verified'), inFuelProgram: true }),
    ]);
    const published = report(period, [{ vehicleId: 'veh_1', externalRef: 'T1', figures }], undefined, {
      rule: 'required',
      exceptions: [flagged('fuel_new', '2026-11-12T08:00:00.000000Z')],
    });
    expect(published.fuel_program.rule).toBe('required');
    expect(published.fuel_program.in_program).toEqual({ fills: 1, gallons: 100, spend_usd: 340 });
    expect(published.verification).toEqual({
      verified: 1,
      unverified: 0,
      flagged: 2,
      not_checked: 0,
      exceptions: [
        {
          fueling_id: 'fuel_new',
          vehicle_id: 'veh_1',
          fueled_at: '2026-11-12T08:00:00.000000Z',
          gallons: 180,
          station_id: 'stn_1',
          status: 'flagged',
          reasons: [
            { code: 'exceeds_tank_size', detail: '180 gal is more than the vehicle’s 100 gal tank.' },
          ],
        },
      ],
      // Two were flagged, one is listed.
      exceptions_truncated: true,
    });
  });
  it('lists at most 50', () => {
    const many = Array.from({ length: MAX_EXCEPTIONS + 3 }, (_, i) =>
      flagged(`fuel_${i}`, `2026-11-10T${String(i % 24).padStart(2, '0')}:00:00.000000Z`),
    );
    const published = report(
      period,
      [{ vehicleId: 'veh_1', externalRef: null, figures: sum(many) }],
      undefined,
      {
        rule: 'none',
        exceptions: many,
      },
    );
    expect(MAX_EXCEPTIONS).toBe(50);
    expect(published.verification.exceptions).toHaveLength(50);
    expect(published.verification.flagged).toBe(53);
    expect(published.verification.exceptions_truncated).toBe(true);
  });
  it('with nothing flagged, nothing is listed or truncated', () => {
    const published = report(period, [], undefined, { rule: 'preferred', exceptions: [] });
    expect(published.verification).toMatchObject({ flagged: 0, exceptions: [], exceptions_truncated: false });
    expect(published.fuel_program.unknown).toEqual({ fills: 0, gallons: 0, spend_usd: 0 });
  });
});
