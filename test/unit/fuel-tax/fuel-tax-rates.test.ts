import { describe, expect, it, vi } from 'vitest';
import type { AuditLog } from '#shared/accounts/domain/audit.ts';
import type { StoredTaxRate } from '#shared/fuel-tax/domain/rate-table.ts';
import type { FuelTaxRateStore } from '#shared/fuel-tax/store/fuel-tax-rates.ts';
import { listFuelTaxRates, putFuelTaxRate } from '#shared/fuel-tax/usecases/fuel-tax-rate-operations.ts';
import {
  createFuelTaxRatesProvider,
  FUEL_TAX_RATES_TTL_MS,
} from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';

const NOW_MS = Date.parse('2026-11-21T22:26:10.123Z');
const OPERATOR = 'token:Local operator';
const PA_NOW = Date.parse('2026-12-01T00:00:00Z');

const storedRow = (usdPerGallon: number, effectiveFrom = '2026-Q4'): StoredTaxRate => ({
  state: 'PA',
  usdPerGallon,
  effectiveFrom,
  updatedAt: '2026-11-21T22:00:00.000000Z',
  updatedBy: OPERATOR,
});

/** A store whose rows the test changes, every method a vi.fn(). */
function fakeRateStore(rows: StoredTaxRate[] = []) {
  const held = [...rows];
  return {
    held,
    list: vi.fn<FuelTaxRateStore['list']>(async () => [...held]),
    put: vi.fn<FuelTaxRateStore['put']>(async (row) => {
      const index = held.findIndex((r) => r.state === row.state && r.effectiveFrom === row.effectiveFrom);
      const previous = index >= 0 ? (held[index] as StoredTaxRate) : null;
      if (index >= 0) held.splice(index, 1);
      held.push(row);
      return previous;
    }),
  };
}

describe('createFuelTaxRatesProvider', () => {
  it('serves the shipped table with stored rows over it, re-reading at most once a minute', async () => {
    // Prepare
    const store = fakeRateStore();
    const clock = fixedClock(NOW_MS);
    const provider = createFuelTaxRatesProvider({ store, now: clock.now });

    // Act
    const first = await provider.current();
    store.held.push(storedRow(0.8));
    clock.advance(FUEL_TAX_RATES_TTL_MS - 1);
    const withinTtl = await provider.current();
    clock.advance(1);
    const afterTtl = await provider.current();

    // Assess
    expect(first.rateOf('PA', PA_NOW)).toBe(0.741);
    expect(withinTtl.rateOf('PA', PA_NOW)).toBe(0.741);
    expect(afterTtl.rateOf('PA', PA_NOW)).toBe(0.8);
    expect(afterTtl.rateOf('OH', PA_NOW)).toBe(0.47);
    expect(store.list).toHaveBeenCalledTimes(2);
  });

  it('lets concurrent callers share one read', async () => {
    // Prepare
    const store = fakeRateStore([storedRow(0.8)]);
    const provider = createFuelTaxRatesProvider({ store, now: fixedClock(NOW_MS).now });

    // Act
    const tables = await Promise.all([provider.current(), provider.current(), provider.current()]);

    // Assess
    expect(store.list).toHaveBeenCalledTimes(1);
    expect(tables.map((table) => table.rateOf('PA', PA_NOW))).toEqual([0.8, 0.8, 0.8]);
  });

  it('keeps pricing with the table in hand when a re-read fails, and reads again on the next call', async () => {
    // Prepare
    const store = fakeRateStore([storedRow(0.8)]);
    const clock = fixedClock(NOW_MS);
    const provider = createFuelTaxRatesProvider({ store, now: clock.now });
    await provider.current();
    clock.advance(FUEL_TAX_RATES_TTL_MS);
    store.list.mockRejectedValueOnce(new Error('ProvisionedThroughputExceededException'));

    // Act
    const duringOutage = await provider.current();
    store.held.splice(0, 1, storedRow(0.81));
    const recovered = await provider.current();

    // Assess
    expect(duringOutage.rateOf('PA', PA_NOW)).toBe(0.8);
    expect(recovered.rateOf('PA', PA_NOW)).toBe(0.81);
  });

  it('answers a failed first read as the caller’s error', async () => {
    // Prepare
    const store = fakeRateStore();
    store.list.mockRejectedValueOnce(new Error('ResourceNotFoundException'));
    const provider = createFuelTaxRatesProvider({ store, now: fixedClock(NOW_MS).now });

    // Act / Assess
    await expect(provider.current()).rejects.toThrow('ResourceNotFoundException');
    expect((await provider.current()).rateOf('PA', PA_NOW)).toBe(0.741);
  });
});

describe('the operator’s fuel tax rate operations', () => {
  const deps = (store: ReturnType<typeof fakeRateStore>) => ({
    rates: store,
    audit: { record: vi.fn<AuditLog['record']>(async () => {}) },
    now: fixedClock(NOW_MS).now,
  });

  it('stores a rate for a later quarter, audited with the rate it replaces', async () => {
    // Prepare
    const store = fakeRateStore();
    const d = deps(store);

    // Act
    const first = await putFuelTaxRate(d, OPERATOR, {
      state: 'PA',
      usdPerGallon: 0.785,
      effectiveFrom: '2026-Q4',
    });
    const again = await putFuelTaxRate(d, OPERATOR, {
      state: 'PA',
      usdPerGallon: 0.79,
      effectiveFrom: '2026-Q4',
    });

    // Assess
    expect(first).toEqual({
      state: 'PA',
      usdPerGallon: 0.785,
      effectiveFrom: '2026-Q4',
      source: 'operator',
      updatedAt: '2026-11-21T22:26:10.123000Z',
      updatedBy: OPERATOR,
    });
    expect(again.usdPerGallon).toBe(0.79);
    expect(d.audit.record.mock.calls.map(([entry]) => entry)).toEqual([
      expect.objectContaining({
        action: 'fuel_tax_rate.set',
        actor: { type: 'operator', id: OPERATOR },
        target: { type: 'fuel_tax_rate', id: 'PA/2026-Q4' },
        // Nothing stored for 2026-Q4 yet, and the shipped PA row is 2025-Q4's: nothing replaced.
        details: {
          state: 'PA',
          effective_from: '2026-Q4',
          usd_per_gallon: 0.785,
          previous_usd_per_gallon: null,
        },
      }),
      expect.objectContaining({
        details: {
          state: 'PA',
          effective_from: '2026-Q4',
          usd_per_gallon: 0.79,
          previous_usd_per_gallon: 0.785,
        },
      }),
    ]);
  });

  it('audits a correction of a shipped row with the shipped rate', async () => {
    // Prepare
    const d = deps(fakeRateStore());

    // Act
    await putFuelTaxRate(d, OPERATOR, { state: 'OH', usdPerGallon: 0.475, effectiveFrom: '2025-Q4' });

    // Assess
    expect(d.audit.record.mock.calls[0]?.[0].details.previous_usd_per_gallon).toBe(0.47);
  });

  it('refuses a quarter more than 4 ahead with 422 on effective_from, storing and auditing nothing', async () => {
    // Prepare
    const store = fakeRateStore();
    const d = deps(store);

    // Act
    const error = await putFuelTaxRate(d, OPERATOR, {
      state: 'PA',
      usdPerGallon: 0.8,
      effectiveFrom: '2028-Q1',
    }).catch((thrown: unknown) => thrown);

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      extensions: {
        errors: [
          {
            field: 'effective_from',
            message: 'must be at most 4 quarters after the current one (2026-Q4), so 2027-Q4 at the latest',
          },
        ],
      },
    });
    expect(store.put).not.toHaveBeenCalled();
    expect(d.audit.record).not.toHaveBeenCalled();
  });

  it('lists the rates in force now with their source, and the upcoming ones', async () => {
    // Prepare
    const store = fakeRateStore([storedRow(0.75, '2026-Q4'), storedRow(0.785, '2027-Q1')]);

    // Act
    const rates = await listFuelTaxRates(deps(store));

    // Assess
    expect(rates.asOf).toBe('2026-11-21T22:26:10.123000Z');
    expect(rates.quarter).toBe('2026-Q4');
    expect(rates.inForce).toHaveLength(49);
    expect(rates.inForce.find((row) => row.state === 'PA')).toMatchObject({
      usdPerGallon: 0.75,
      source: 'operator',
    });
    expect(rates.inForce.find((row) => row.state === 'OH')).toMatchObject({
      usdPerGallon: 0.47,
      source: 'shipped',
    });
    expect(rates.upcoming.map((row) => [row.state, row.effectiveFrom, row.usdPerGallon])).toEqual([
      ['PA', '2027-Q1', 0.785],
    ]);
  });
});
