import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditStore } from '#shared/accounts/wiring/audit.ts';
import { fuelTaxRateDeps } from '#shared/admin/wiring/admin.ts';
import { createFuelTaxRateStore } from '#shared/fuel-tax/store/fuel-tax-rates.ts';
import { listFuelTaxRates, putFuelTaxRate } from '#shared/fuel-tax/usecases/fuel-tax-rate-operations.ts';
import { FUEL_TAX_RATES_TTL_MS } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { createTestTable, deleteTestTable } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

// The operators' tax rows against DynamoDB Local, wired as the functions are: the operator API
// writes them (fuelTaxRateDeps) and every pricing function reads them (stationSources().fuelTaxes).

const NOW_MS = Date.parse('2026-11-21T22:26:10.123Z');
const IN_Q4 = Date.parse('2026-12-01T00:00:00Z');
const OPERATOR = 'arn:aws:sts::123456789012:assumed-role/FleetFuelOperators/alice';
const clock = fixedClock(NOW_MS);
let infra: TestInfrastructure;

beforeAll(async () => {
  const base = testInfrastructure({ tableName: 'pending' });
  const tableName = await createTestTable(base.dynamo, 'fuel-tax');
  infra = testInfrastructure({ tableName, clock });
});
afterAll(() => deleteTestTable(infra.dynamo, infra.config.tableName));

describe('the fuel tax rate store', () => {
  it('round-trips a row, answers the row a put replaced, and lists every row', async () => {
    // Prepare
    const store = createFuelTaxRateStore(infra.client, infra.config.controlTableName);
    const row = {
      state: 'IN',
      usdPerGallon: 0.62,
      effectiveFrom: '2027-Q1',
      updatedAt: '2026-11-21T22:26:10.123000Z',
      updatedBy: OPERATOR,
    };

    // Act
    const created = await store.put(row);
    const replaced = await store.put({ ...row, usdPerGallon: 0.625 });
    await store.put({ ...row, state: 'IL', usdPerGallon: 0.76 });
    const listed = await store.list();

    // Assess
    expect(created).toBeNull();
    expect(replaced).toEqual(row);
    expect(listed).toEqual(
      expect.arrayContaining([
        { ...row, usdPerGallon: 0.625 },
        { ...row, state: 'IL', usdPerGallon: 0.76 },
      ]),
    );
    expect(listed).toHaveLength(2);
  });
});

describe('an operator update reaching pricing', () => {
  it('is what the provider serves once its minute is over, and what the operator lists at once', async () => {
    // Prepare
    const provider = stationSources(infra).fuelTaxes;
    const before = await provider.current();

    // Act
    const stored = await putFuelTaxRate(fuelTaxRateDeps(infra), OPERATOR, {
      state: 'PA',
      usdPerGallon: 0.8,
      effectiveFrom: '2026-Q4',
    });
    const listed = await listFuelTaxRates(fuelTaxRateDeps(infra));
    const withinMinute = await provider.current();
    clock.advance(FUEL_TAX_RATES_TTL_MS);
    const afterMinute = await provider.current();

    // Assess
    expect(stored.source).toBe('operator');
    expect(listed.inForce.find((row) => row.state === 'PA')).toMatchObject({
      usdPerGallon: 0.8,
      source: 'operator',
      updatedBy: OPERATOR,
    });
    expect(before.rateOf('PA', IN_Q4)).toBe(0.741);
    expect(withinMinute.rateOf('PA', IN_Q4)).toBe(0.741);
    expect(afterMinute.rateOf('PA', IN_Q4)).toBe(0.8);
    // The shipped row still prices the quarters before the operator's.
    expect(afterMinute.rateOf('PA', Date.parse('2026-09-30T00:00:00Z'))).toBe(0.741);
    const { data: audit } = await auditStore(infra).list({}, 10, undefined);
    expect(audit.map((entry) => [entry.action, entry.target])).toContainEqual([
      'fuel_tax_rate.set',
      { type: 'fuel_tax_rate', id: 'PA/2026-Q4' },
    ]);
  });
});
