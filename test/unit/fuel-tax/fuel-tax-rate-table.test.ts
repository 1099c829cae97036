import { describe, expect, it } from 'vitest';
import {
  effectiveFromProblem,
  mergeTaxRates,
  quarterOf,
  ratesAt,
  type StoredTaxRate,
  TAX_JURISDICTIONS,
} from '#shared/fuel-tax/domain/rate-table.ts';
import { fuelTaxTable, type StateTaxRate } from '#shared/fuel-tax/domain/state-diesel-tax.ts';

const SHIPPED: StateTaxRate[] = [
  { state: 'PA', usdPerGallon: 0.741, effectiveFrom: '2025-Q4' },
  { state: 'OH', usdPerGallon: 0.47, effectiveFrom: '2025-Q4' },
];
const stored = (row: StateTaxRate): StoredTaxRate => ({
  ...row,
  updatedAt: '2026-11-21T22:26:10.123000Z',
  updatedBy: 'token:Local operator',
});
const at = (iso: string) => Date.parse(iso);

describe('the tax table merged from shipped and stored rows', () => {
  it('a stored row for a shipped state and quarter replaces the shipped one', () => {
    // Act
    const rows = mergeTaxRates(SHIPPED, [
      stored({ state: 'PA', usdPerGallon: 0.755, effectiveFrom: '2025-Q4' }),
    ]);

    // Assess
    expect(rows.map((row) => [row.state, row.effectiveFrom, row.usdPerGallon, row.source])).toEqual([
      ['OH', '2025-Q4', 0.47, 'shipped'],
      ['PA', '2025-Q4', 0.755, 'operator'],
    ]);
    expect(fuelTaxTable(rows).rateOf('PA', at('2026-01-15T00:00:00Z'))).toBe(0.755);
  });

  it('the newest row effective by a moment wins; a future quarter is not in force before it starts', () => {
    // Prepare
    const table = fuelTaxTable(
      mergeTaxRates(SHIPPED, [stored({ state: 'PA', usdPerGallon: 0.785, effectiveFrom: '2027-Q1' })]),
    );

    // Act / Assess
    expect(table.rateOf('PA', at('2026-12-31T23:59:59.999Z'))).toBe(0.741);
    expect(table.rateOf('PA', at('2027-01-01T00:00:00Z'))).toBe(0.785);
    expect(table.rateOf('OH', at('2027-01-01T00:00:00Z'))).toBe(0.47);
  });

  it('an unknown state has no rate (nothing is credited)', () => {
    // Act / Assess
    expect(fuelTaxTable(mergeTaxRates(SHIPPED, [])).rateOf('PR', at('2026-11-21T00:00:00Z'))).toBeNull();
  });

  it('splits the rows into the ones in force at a moment (with their source) and the later ones', () => {
    // Prepare
    const rows = mergeTaxRates(SHIPPED, [
      stored({ state: 'PA', usdPerGallon: 0.75, effectiveFrom: '2026-Q4' }),
      stored({ state: 'PA', usdPerGallon: 0.785, effectiveFrom: '2027-Q1' }),
      stored({ state: 'OH', usdPerGallon: 0.49, effectiveFrom: '2027-Q3' }),
    ]);

    // Act
    const { inForce, upcoming } = ratesAt(rows, at('2026-11-21T22:26:10Z'));

    // Assess
    expect(inForce.map((row) => [row.state, row.usdPerGallon, row.source])).toEqual([
      ['OH', 0.47, 'shipped'],
      ['PA', 0.75, 'operator'],
    ]);
    expect(upcoming.map((row) => [row.state, row.effectiveFrom, row.usdPerGallon])).toEqual([
      ['OH', '2027-Q3', 0.49],
      ['PA', '2027-Q1', 0.785],
    ]);
  });

  it('covers the 48 contiguous states and DC, no more', () => {
    // Act / Assess
    expect(TAX_JURISDICTIONS).toHaveLength(49);
    expect(TAX_JURISDICTIONS).toEqual(expect.arrayContaining(['DC', 'PA', 'OH', 'IN', 'IL']));
    expect(TAX_JURISDICTIONS).not.toContain('AK');
    expect(TAX_JURISDICTIONS).not.toContain('HI');
  });
});

describe('the quarter an operator may store a rate from', () => {
  const NOW = at('2026-11-21T22:26:10Z');

  it('is the quarter of a moment in UTC', () => {
    // Act / Assess
    expect(quarterOf(NOW)).toBe('2026-Q4');
    expect(quarterOf(at('2027-01-01T00:00:00Z'))).toBe('2027-Q1');
    expect(quarterOf(at('2026-03-31T23:59:59.999Z'))).toBe('2026-Q1');
  });

  it.each(['2026-Q4', '2027-Q4', '2025-Q1'])(
    'accepts %s (now, 4 quarters ahead, a past correction)',
    (quarter) => {
      // Act / Assess
      expect(effectiveFromProblem(quarter, NOW)).toBeNull();
    },
  );

  it('refuses 5 quarters ahead, naming the latest quarter allowed', () => {
    // Act / Assess
    expect(effectiveFromProblem('2028-Q1', NOW)).toBe(
      'must be at most 4 quarters after the current one (2026-Q4), so 2027-Q4 at the latest',
    );
  });

  it.each(['2026-Q5', '2026Q1', 'Q1-2026'])('refuses the malformed %s with the format', (quarter) => {
    // Act / Assess
    expect(effectiveFromProblem(quarter, NOW)).toBe('must be a quarter as YYYY-Qn, e.g. 2026-Q1');
  });
});
