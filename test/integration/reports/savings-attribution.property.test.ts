import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDay } from '#shared/fuelings/domain/period.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import { savingsReportDeps } from '#shared/reports/wiring/reports.ts';
import { type DriveGroup, generateFleet, SAVINGS_FLEET_MIX } from '#test/support/drives/generator.ts';
import { type CardPurchaseOptions, createDriveSimulation } from '#test/support/drives/harness.ts';
import {
  checkAttribution,
  type JudgedFill,
  judgeFills,
  type ReportedSavings,
} from '#test/support/drives/savings.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';
import { DRIVE_GROUP_TIMEOUT_MS, SAVINGS_DRIVE_RUNS } from '#test/support/property-budget.ts';

/**
 * The savings report credits the decision, whatever the drivers did: seeded drives of followers,
 * drivers who pass the shown stop and fuel further on, and early fillers (SAVINGS_FLEET_MIX) go
 * through ingest and the guidance worker's cycle on DynamoDB Local, every fill also reported by
 * card. Each fleet's report equals, row by row and in its totals, the saving computed from the
 * drives by the published methodology (test/support/drives/savings.ts) within a cent a fill, and no
 * driver who passed a stop over shows more routing saving per gallon than a follower of it; and
 * every card purchase, a fill the truck really made, is verified against the truck's own data.
 */
const client = testDocumentClient();
const FIRST_START_MS = Date.parse('2026-11-16T06:00:00Z');
const clock = fixedClock(FIRST_START_MS);
const GROUP_SPACING_MS = 86_400_000;
const CARDS: CardPurchaseOptions = {
  discounts: { 'Pilot Flying J': 18, "Love's": 15, TA: 12, Petro: 12 },
  feedLagMinutes: 20,
};

let table: string;
let infra: TestInfrastructure;
let simulation: ReturnType<typeof createDriveSimulation>;

beforeAll(async () => {
  table = await createTestTable(client, 'savings-attribution');
  infra = testInfrastructure({ tableName: table, clock });
  simulation = createDriveSimulation(infra, clock);
});
afterAll(() => deleteTestTable(client, table));

const describeGroup = (group: DriveGroup) =>
  group.drives.map((d) => `${d.behaviour} ${d.from.name}→${d.to.name} ${d.startFuelPercent}%`).join('; ');

describe('the savings report over followers, ignorers and early fillers', () => {
  const groups = generateFleet({
    seed: 2027,
    drives: SAVINGS_DRIVE_RUNS,
    maxGroupSize: 2,
    ...SAVINGS_FLEET_MIX,
  });
  const judged: JudgedFill[] = [];

  for (const [index, group] of groups.entries()) {
    it(`equals the saving computed from the drives: ${describeGroup(group)}`, {
      timeout: DRIVE_GROUP_TIMEOUT_MS,
    }, async () => {
      const startMs = FIRST_START_MS + GROUP_SPACING_MS * (index + 1);
      const outcomes = await simulation.runGroup(group, startMs, 300 + index, CARDS);
      for (const outcome of outcomes) expect(outcome.deadLetters).toEqual([]);
      const fills = judgeFills(outcomes);
      judged.push(...fills);
      const fleetId = outcomes[0]?.fleetId as string;
      const report = await savingsReport(savingsReportDeps(infra), fleetId, {
        from: utcDay(startMs),
        to: utcDay(startMs + GROUP_SPACING_MS),
      });
      const check = checkAttribution(fleetId, fills, {
        totals: report.totals as unknown as ReportedSavings,
        vehicles: report.vehicles as unknown as (ReportedSavings & { vehicle_id: string })[],
      });
      const story = JSON.stringify({ fills: fills.map((f) => ({ ...f, stop: f.stop?.stationId })), check });
      expect(check.splitErrors, story).toEqual([]);
      expect(check.rankingErrors, story).toEqual([]);
      // Every card purchase is the truck's own fill, seen live: the truck's data verifies each one.
      const purchases = outcomes.reduce((sum, o) => sum + o.purchases.length, 0);
      expect(report.verification, story).toMatchObject({ verified: purchases, unverified: 0, flagged: 0 });
    });
  }

  it('judged followers and fills made elsewhere while a stop stood (the property is not vacuous)', () => {
    expect(judged.filter((f) => f.judgement === 'followed').length).toBeGreaterThanOrEqual(3);
    expect(judged.filter((f) => f.judgement === 'passed_over').length).toBeGreaterThanOrEqual(1);
  });
});
