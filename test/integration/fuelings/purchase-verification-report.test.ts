import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { verdictChangeItems } from '#shared/fuelings/store/fuelings.ts';
import { recordFill } from '#shared/fuelings/usecases/fueling-records.ts';
import { createFuelingRecordDeps, fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { fleetScorecard } from '#shared/integration-health/usecases/integration-health.ts';
import { integrationHealthDeps } from '#shared/integration-health/wiring/integration-health.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import { savingsReportDeps } from '#shared/reports/wiring/reports.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * The savings report's fuel program and verification sections, and the scorecard's purchase
 * verification, over fuelings stored as the fill transaction stores them (DynamoDB Local): the
 * day items count them, the sparse index of flagged purchases lists them, a re-checked verdict
 * moves its purchase.
 */
const client = testDocumentClient();
const NOW = Date.parse('2026-11-23T14:30:00Z');
const clock = fixedClock(NOW);
let table: string;
let infra: TestInfrastructure;

beforeAll(async () => {
  table = await createTestTable(client, 'purchase-verification');
  infra = testInfrastructure({ tableName: table, clock });
});
afterAll(() => deleteTestTable(client, table));

async function truck(fleetId: string) {
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `PV-${Math.random().toString(36).slice(2, 8)}`,
    tank_size_gallons: 100,
    estimated_mpg: 6.5,
  });
  return vehicle.id;
}

const verdict = (status: StoredVerification['status'], checkedAt: string): StoredVerification => ({
  status,
  reasons:
    status === 'flagged'
      ? [{ code: 'exceeds_tank_size', detail: '180 gal is more than the vehicle’s 100 gal tank.' }]
      : [{ code: 'no_breadcrumbs_near_time', detail: 'The vehicle reported no breadcrumb within 30 min.' }],
  checkedAt,
  rechecked: false,
});

/** A fill at $3.50 net a gallon; a reported one may carry a verdict. */
function fill(vehicleId: string, fueledAt: string, overrides: Partial<Fueling> = {}): Fueling {
  return {
    id: newId('fueling'),
    vehicleId,
    source: 'reported',
    gallons: 100,
    fueledAt,
    latitude: 35.2,
    longitude: -101.8,
    fuelLevelBeforePercent: null,
    fuelLevelAfterPercent: null,
    guidanceId: null,
    stopId: null,
    stationId: 'stn_AMARILLO',
    createdAt: fueledAt,
    price: 3.5,
    discount: 0,
    netPrice: 3.5,
    taxTreatment: 'pump',
    ...overrides,
  };
}

async function store(fleetId: string, fueling: Fueling) {
  const outcome = await fuelingStores(infra).fuelings.record(fleetId, { fueling, mergeWith: null });
  expect(outcome).toEqual({ recorded: true });
}

describe('the report over stored fuelings', () => {
  it('splits the period’s fills by program side, counts purchases by verdict and lists the flagged newest first', async () => {
    const fleetId = newId('fleet');
    const [a, b] = [await truck(fleetId), await truck(fleetId)];
    const at = (day: number, hour: number) =>
      `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000000Z`;
    const flaggedEarly = fill(a, at(10, 8), { gallons: 180, verification: verdict('flagged', at(10, 8)) });
    const flaggedLate = fill(b, at(20, 9), { gallons: 150, verification: verdict('flagged', at(20, 9)) });
    const flaggedBefore = fill(a, at(2, 9), { verification: verdict('flagged', at(2, 9)) });
    await Promise.all([
      store(
        fleetId,
        fill(a, at(12, 10), { inFuelProgram: true, verification: verdict('verified', at(12, 10)) }),
      ),
      store(
        fleetId,
        fill(a, at(13, 10), {
          inFuelProgram: false,
          gallons: 50,
          verification: verdict('unverified', at(13, 10)),
        }),
      ),
      store(
        fleetId,
        fill(b, at(14, 10), { source: 'detected', inFuelProgram: null, gallons: 80, netPrice: null }),
      ),
      store(fleetId, flaggedEarly),
      store(fleetId, flaggedLate),
      // Before the period: neither counted nor listed.
      store(fleetId, flaggedBefore),
    ]);

    const report = await savingsReport(savingsReportDeps(infra), fleetId, {
      from: '2026-11-05',
      to: '2026-11-23',
    });
    expect(report.fuel_program).toEqual({
      rule: 'none',
      in_program: { fills: 1, gallons: 100, spend_usd: 350 },
      off_program: { fills: 1, gallons: 50, spend_usd: 175 },
      // The detection (no price) and the two flagged purchases recorded with no program side.
      unknown: { fills: 3, gallons: 410, spend_usd: 1155 },
    });
    expect(report.verification).toMatchObject({ verified: 1, unverified: 1, flagged: 2, not_checked: 0 });
    expect(report.verification.exceptions).toEqual([
      {
        fueling_id: flaggedLate.id,
        vehicle_id: b,
        fueled_at: flaggedLate.fueledAt,
        gallons: 150,
        station_id: 'stn_AMARILLO',
        status: 'flagged',
        reasons: flaggedLate.verification?.reasons,
      },
      expect.objectContaining({ fueling_id: flaggedEarly.id, vehicle_id: a }),
    ]);
    expect(report.verification.exceptions_truncated).toBe(false);

    // One vehicle's report lists its own flagged purchases only.
    const mine = await savingsReport(savingsReportDeps(infra), fleetId, {
      from: '2026-11-05',
      to: '2026-11-23',
      vehicle_id: a,
    });
    expect(mine.verification.exceptions.map((e) => e.fueling_id)).toEqual([flaggedEarly.id]);
    expect(mine.verification).toMatchObject({ flagged: 1, exceptions_truncated: false });

    // Another fleet sees none of them.
    const other = await savingsReport(savingsReportDeps(infra), newId('fleet'), {
      from: '2026-11-05',
      to: '2026-11-23',
    });
    expect(other.verification).toMatchObject({ flagged: 0, exceptions: [] });
  });

  it('a re-checked verdict moves its purchase in the counts and, flagged, into the exceptions; once', async () => {
    const fleetId = newId('fleet');
    const vehicleId = await truck(fleetId);
    const purchase = fill(vehicleId, '2026-11-21T10:00:00.000000Z', {
      verification: verdict('unverified', '2026-11-21T10:05:00.000000Z'),
    });
    await store(fleetId, purchase);
    const day = { from: '2026-11-21', to: '2026-11-21' };
    let report = await savingsReport(savingsReportDeps(infra), fleetId, day);
    expect(report.verification).toMatchObject({ unverified: 1, flagged: 0, exceptions: [] });

    const recheck = { ...verdict('flagged', '2026-11-21T11:20:00.000000Z'), rechecked: true };
    await fuelingStores(infra).fuelings.setVerification(fleetId, purchase, recheck);
    report = await savingsReport(savingsReportDeps(infra), fleetId, day);
    expect(report.verification).toMatchObject({ verified: 0, unverified: 0, flagged: 1 });
    expect(report.verification.exceptions.map((e) => e.fueling_id)).toEqual([purchase.id]);
    expect(await fuelingStores(infra).fuelings.get(fleetId, purchase)).toMatchObject({
      verification: recheck,
    });

    // The outbox carried out again writes nothing more.
    await fuelingStores(infra).fuelings.setVerification(fleetId, purchase, recheck);
    // A change judged from the verdict the record no longer holds is refused whole.
    await expect(
      client.send(
        new TransactWriteCommand({ TransactItems: verdictChangeItems(table, fleetId, purchase, recheck) }),
      ),
    ).rejects.toThrow();
    report = await savingsReport(savingsReportDeps(infra), fleetId, day);
    expect(report.verification).toMatchObject({ unverified: 0, flagged: 1 });
    expect(report.verification.exceptions).toHaveLength(1);
  });

  it('a purchase re-checked to verified leaves the unverified count and is listed nowhere', async () => {
    const fleetId = newId('fleet');
    const vehicleId = await truck(fleetId);
    const purchase = fill(vehicleId, '2026-11-21T10:00:00.000000Z', {
      verification: verdict('unverified', '2026-11-21T10:05:00.000000Z'),
    });
    await store(fleetId, purchase);
    await fuelingStores(infra).fuelings.setVerification(fleetId, purchase, {
      status: 'verified',
      reasons: [{ code: 'at_station', detail: 'A breadcrumb puts the truck 0.1 mi from the station.' }],
      // Re-checked at the same instant (a pinned clock): still a new verdict, not one already written.
      checkedAt: '2026-11-21T10:05:00.000000Z',
      rechecked: true,
    });
    const report = await savingsReport(savingsReportDeps(infra), fleetId, {
      from: '2026-11-21',
      to: '2026-11-21',
    });
    expect(report.verification).toMatchObject({ verified: 1, unverified: 0, flagged: 0, exceptions: [] });
  });
});

describe('a detected fill’s side of the fuel program', () => {
  it('is its station’s chain against the program as it stands when the fill is recorded; no station, no side', async () => {
    const fleetId = newId('fleet');
    const vehicleId = await truck(fleetId);
    let program: FuelProgram = {
      rule: 'required',
      chains: [{ chain: "Love's", discountCents: 12 }],
      offProgramPenaltyCents: 0,
      updatedAt: '2026-11-01T00:00:00.000000Z',
    };
    const deps = { ...createFuelingRecordDeps(infra), fuelPrograms: { get: async () => program } };
    const detected = (hour: number, chain: string | null): Fueling => {
      const fueledAt = `2026-11-22T${String(hour).padStart(2, '0')}:00:00.000000Z`;
      return fill(vehicleId, fueledAt, {
        id: newId('fueling'),
        source: 'detected',
        station: chain
          ? { id: `stn_${hour}`, name: `${chain} ${hour}`, chain, latitude: 35, longitude: -101, address: '' }
          : null,
        stationId: chain ? `stn_${hour}` : null,
      });
    };
    const atLoves = detected(6, 'LOVE’S');
    const atPilot = detected(10, 'Pilot');
    const nowhere = detected(14, null);
    for (const fueling of [atLoves, atPilot, nowhere]) {
      expect(await recordFill(deps, fleetId, fueling)).toMatchObject({ status: 'recorded' });
    }
    // The program changes afterwards: what was recorded keeps its side.
    program = { ...program, chains: [{ chain: 'Pilot', discountCents: 9 }] };
    const stored = await Promise.all(
      [atLoves, atPilot, nowhere].map((f) => fuelingStores(infra).fuelings.get(fleetId, f)),
    );
    expect(stored.map((f) => f?.inFuelProgram)).toEqual([true, false, null]);

    const report = await savingsReport(savingsReportDeps(infra), fleetId, {
      from: '2026-11-22',
      to: '2026-11-22',
    });
    expect(report.fuel_program).toMatchObject({
      in_program: { fills: 1, gallons: 100, spend_usd: 350 },
      off_program: { fills: 1, gallons: 100, spend_usd: 350 },
      unknown: { fills: 1, gallons: 100, spend_usd: 350 },
    });
    // Detections are the truck's own data: no purchase to verify.
    expect(report.verification).toMatchObject({ verified: 0, unverified: 0, flagged: 0, not_checked: 0 });
  });
});

describe('the scorecard’s purchase verification', () => {
  it('counts the last 7 days’ reported purchases by verdict and warns under half of the checked ones checkable', async () => {
    const fleetId = newId('fleet');
    const vehicleId = await truck(fleetId);
    const checked = '2026-11-22T10:05:00.000000Z';
    await Promise.all([
      store(
        fleetId,
        fill(vehicleId, '2026-11-22T10:00:00.000000Z', { verification: verdict('verified', checked) }),
      ),
      store(
        fleetId,
        fill(vehicleId, '2026-11-21T10:00:00.000000Z', { verification: verdict('unverified', checked) }),
      ),
      store(
        fleetId,
        fill(vehicleId, '2026-11-20T10:00:00.000000Z', { verification: verdict('flagged', checked) }),
      ),
      // A detection is the truck's own data, not a purchase to verify.
      store(
        fleetId,
        fill(vehicleId, '2026-11-19T10:00:00.000000Z', { source: 'detected', verification: null }),
      ),
      // Eight days ago: outside the lookback.
      store(
        fleetId,
        fill(vehicleId, '2026-11-15T10:00:00.000000Z', { verification: verdict('verified', checked) }),
      ),
    ]);

    const card = await fleetScorecard(integrationHealthDeps(infra), fleetId, undefined);
    expect(card.counts).toMatchObject({ fuelings_reported_7d: 3, fuelings_verified_7d: 1 });
    expect(card.purchase_verification).toEqual({
      reported: 3,
      verified: 1,
      unverified: 1,
      flagged: 1,
      not_checked: 0,
      verified_share: 0.333,
      // The flagged one was checked too: 2 of 3.
      checkable_share: 0.667,
    });
    expect(card.checks.find((check) => check.id === 'purchases_verifiable')).toMatchObject({
      status: 'pass',
      observed: '66.7% checkable',
    });
    // Two more unverified purchases, and one recorded before purchases were checked: 2 of 5 checked.
    await Promise.all([
      store(
        fleetId,
        fill(vehicleId, '2026-11-22T12:00:00.000000Z', { verification: verdict('unverified', checked) }),
      ),
      store(
        fleetId,
        fill(vehicleId, '2026-11-22T14:00:00.000000Z', { verification: verdict('unverified', checked) }),
      ),
      store(fleetId, fill(vehicleId, '2026-11-22T16:00:00.000000Z', { verification: null })),
    ]);
    const later = await fleetScorecard(integrationHealthDeps(infra), fleetId, undefined);
    expect(later.purchase_verification).toEqual({
      reported: 6,
      verified: 1,
      unverified: 3,
      flagged: 1,
      not_checked: 1,
      verified_share: 0.167,
      checkable_share: 0.4,
    });
    expect(later.checks.find((check) => check.id === 'purchases_verifiable')).toMatchObject({
      status: 'warn',
      observed: '40% checkable',
    });
    expect(later.next_steps.map((step) => step.check_id)).toContain('purchases_verifiable');
    expect(card.next_steps.map((step) => step.check_id)).not.toContain('purchases_verifiable');
  });
});
