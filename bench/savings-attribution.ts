/**
 * `savings_report_attribution_errors` (goal 0): a seeded fleet of followers, drivers who ignore the
 * shown stop and fuel further on, and early fillers (test/support/drives/, SAVINGS_FLEET_MIX),
 * driven through ingest and the guidance worker's cycle on DynamoDB Local, every fill also posted
 * as a card purchase (POST /v1/fuelings' use case, the fleet's discounts applied). Then each
 * fleet's GET /v1/reports/savings is set against the saving of every fill computed from the drives
 * alone (test/support/drives/savings.ts): vehicle rows and totals whose saving (where the fleet
 * bought: routing), card or missed saving differ by more than a cent a fill, and drivers who passed
 * a stop over showing more saving per gallon than a follower of it. The saving is printed as the
 * decision's; what the fleet's card is worth on the same corridors is printed beside it. The same
 * purchases' verification verdicts (goal: no false flag), and hostile purchases posted after each
 * report is read (goal: every one flagged), are counted from the report.
 * Run alone with `npx tsx bench/savings-attribution.ts [drives] [--explain]`.
 */
import { pathToFileURL } from 'node:url';
import { utcDay } from '#shared/fuelings/domain/period.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import { savingsReportDeps } from '#shared/reports/wiring/reports.ts';
import { drivesToShownStop, generateFleet, SAVINGS_FLEET_MIX } from '#test/support/drives/generator.ts';
import type { CardPurchaseOptions, DriveOutcome } from '#test/support/drives/harness.ts';
import {
  type AttributionCheck,
  checkAttribution,
  type JudgedFill,
  judgeFills,
  type ReportedSavings,
} from '#test/support/drives/savings.ts';
import { withDriveSimulation } from './drive-simulation.ts';

export interface SavingsAttributionBench {
  savings_report_attribution_errors: number;
  /** Of those: vehicle rows and fleet totals off by more than a cent a fill. */
  savings_report_split_errors: number;
  /** Of those: drivers who passed a stop over showing more saving than its followers. */
  savings_report_ranking_errors: number;
  savings_fleet_drives: number;
  /** Card purchases: followed a shown stop / made elsewhere while one stood / with none standing. */
  savings_fleet_fills_followed: number;
  savings_fleet_fills_passed_over: number;
  savings_fleet_fills_no_recommendation: number;
  /** Fills elsewhere that paid less than the stop they passed over (not errors: the advice was beaten). */
  savings_fleet_fills_cheaper_elsewhere: number;
  /**
   * The reports' fleet totals, summed over the fleets: the saving of where the fleet bought
   * (`savings_usd` = `routing_savings_usd`), the missed saving, and the card's worth beside them.
   */
  savings_fleet_savings_usd: number;
  savings_fleet_missed_savings_usd: number;
  savings_fleet_card_savings_usd: number;
  /** The same, computed from the drives. */
  savings_fleet_expected_savings_usd: number;
  savings_fleet_expected_missed_savings_usd: number;
  savings_fleet_expected_card_savings_usd: number;
  /**
   * The same fleet's card purchases checked against the trucks (POST /v1/fuelings' verification, the
   * worker's re-check on late breadcrumbs), as the report counts them: every honest purchase should
   * be verified, none flagged (`purchase_verification_false_flags`, goal 0).
   */
  purchase_verification_honest: number;
  purchase_verification_honest_verified: number;
  purchase_verification_honest_unverified: number;
  purchase_verification_false_flags: number;
  /**
   * Hostile purchases posted after each fleet's day (one per filling truck: the same gallons 500+
   * miles from the truck, or 1.8 tanks at its own stop): all should be flagged (goal: missed 0).
   */
  purchase_verification_hostile: number;
  purchase_verification_hostile_missed: number;
  savings_attribution_seconds: number;
}

const TABLE = 'bench-savings-attribution';
const DRIVES = 60;
const SEED = 27;
const GROUP_SPACING_MS = 86_400_000;
const FIRST_START_MS = Date.parse('2026-11-02T06:00:00Z');
/** A fleet card's discounts, cents per gallon by chain (the two large chains the most). */
const CARDS: CardPurchaseOptions = {
  discounts: { 'Pilot Flying J': 18, "Love's": 15, TA: 12, Petro: 12, 'Sapp Bros': 8, Kwik: 5 },
  feedLagMinutes: 20,
};

const usd = (cents: number) => Math.round(cents) / 100;

/** Two far corners of the drives' map: a hostile purchase is placed at the one farther from the truck. */
const FAR_POINTS = [
  { latitude: 34.05, longitude: -118.24 },
  { latitude: 33.75, longitude: -84.39 },
] as const;
const HOSTILE_MIN_MILES = 500;

/**
 * One hostile purchase per truck that filled: alternately the same gallons paid 500+ miles from
 * where the truck was, and 1.8 tanks at the truck's own stop, each 10 minutes after the real fill.
 */
function hostilePurchases(run: readonly DriveOutcome[]) {
  const items: Record<string, unknown>[] = [];
  for (const [index, outcome] of run.entries()) {
    const fill = outcome.fills[0];
    const purchase = outcome.purchases[0];
    if (!fill || !purchase) continue;
    const fueled_at = new Date(fill.leftAtMs + 10 * 60_000).toISOString();
    if (index % 2 === 0) {
      const far = [...FAR_POINTS].sort((a, b) => haversineMiles(b, fill) - haversineMiles(a, fill))[0];
      if (!far || haversineMiles(far, fill) < HOSTILE_MIN_MILES) continue;
      items.push({ vehicle_id: outcome.vehicleId, fueled_at, gallons: purchase.gallons, ...far });
    } else {
      const gallons = Math.round(outcome.spec.tankGallons * 1.8);
      items.push({ vehicle_id: outcome.vehicleId, fueled_at, gallons, station_id: purchase.stationId });
    }
  }
  return items;
}

function explain(
  outcomes: readonly DriveOutcome[],
  fills: readonly JudgedFill[],
  checks: readonly AttributionCheck[],
) {
  for (const o of outcomes) {
    if (o.purchases.length > 0) continue;
    const why = !o.shownAtStart
      ? 'no stop shown'
      : drivesToShownStop(o.spec, o.shownAtStart)
        ? 'no fill'
        : 'the stop is beyond the drive';
    console.log(`drive ${o.spec.index} ${o.spec.behaviour}: no fill (${why})`);
  }
  for (const o of outcomes) {
    if (o.spec.behaviour !== 'fuels_at_shown_stop' && o.purchases.length > 0 && !o.otherStation) {
      console.log(
        `drive ${o.spec.index} ${o.spec.behaviour}: no other station on the corridor, fuelled at the shown stop`,
      );
    }
  }
  for (const fill of fills) {
    console.log(
      `drive ${fill.drive} ${fill.judgement.padEnd(17)} ${fill.purchase.stationId} ${fill.purchase.gallons} gal at ${fill.effectivePrice}` +
        ` vs ${fill.stop?.stationId ?? '-'}: savings ${usd(fill.cents.savings)} missed ${usd(fill.cents.missed)}` +
        ` (card ${usd(fill.cents.card)} beside)`,
    );
  }
  for (const check of checks) {
    for (const e of check.splitErrors) {
      console.log(
        `split   ${e.fleetId} ${e.vehicleId ?? 'totals'} ${e.field}: reported ${e.reported === null ? 'nothing' : usd(e.reported)}, expected ${usd(e.expected)}`,
      );
    }
    for (const e of check.rankingErrors) {
      console.log(
        `ranking ${e.fleetId} ${e.vehicleId}: ${e.reportedPerGallon.toFixed(3)}/gal saved, a follower ${e.followerPerGallon.toFixed(3)}/gal`,
      );
    }
  }
}

export async function benchSavingsAttribution(
  drives = DRIVES,
  options: { explain?: boolean } = {},
): Promise<SavingsAttributionBench> {
  const started = performance.now();
  return withDriveSimulation(TABLE, FIRST_START_MS, async ({ infra, simulation }) => {
    const reportDeps = savingsReportDeps(infra);
    const groups = generateFleet({ seed: SEED, drives, ...SAVINGS_FLEET_MIX });
    const outcomes: DriveOutcome[] = [];
    const fills: JudgedFill[] = [];
    const checks: AttributionCheck[] = [];
    const reported = { savings: 0, card: 0, missed: 0 };
    const verification = { honest: 0, verified: 0, unverified: 0, flagged: 0, hostile: 0, hostileFlagged: 0 };
    for (const [index, group] of groups.entries()) {
      const startMs = FIRST_START_MS + index * GROUP_SPACING_MS;
      const run = await simulation.runGroup(group, startMs, SEED + index, CARDS);
      outcomes.push(...run);
      const judged = judgeFills(run);
      fills.push(...judged);
      const fleetId = (run[0] as DriveOutcome).fleetId;
      const report = await savingsReport(reportDeps, fleetId, {
        from: utcDay(startMs),
        to: utcDay(startMs + GROUP_SPACING_MS),
      });
      const totals = report.totals as unknown as ReportedSavings;
      checks.push(
        checkAttribution(fleetId, judged, {
          totals,
          vehicles: report.vehicles as unknown as (ReportedSavings & { vehicle_id: string })[],
        }),
      );
      reported.savings += Math.round(totals.savings_usd * 100);
      reported.missed += Math.round(totals.missed_savings_usd * 100);
      reported.card += Math.round((totals.card_savings_usd ?? 0) * 100);

      const honest = report.verification;
      verification.honest += run.reduce((sum, o) => sum + o.purchases.length, 0);
      verification.verified += honest.verified;
      verification.unverified += honest.unverified;
      verification.flagged += honest.flagged;
      // After the attribution is read: the hostile purchases must not move the savings it checks.
      const hostile = hostilePurchases(run);
      const answer = await simulation.postFuelings(fleetId, hostile);
      if (answer.rejected > 0) throw new Error(`hostile purchase refused: ${JSON.stringify(answer.results)}`);
      const after = await savingsReport(reportDeps, fleetId, {
        from: utcDay(startMs),
        to: utcDay(startMs + GROUP_SPACING_MS),
      });
      verification.hostile += hostile.length;
      verification.hostileFlagged += after.verification.flagged - honest.flagged;
    }
    if (options.explain) explain(outcomes, fills, checks);
    const split = checks.reduce((sum, c) => sum + c.splitErrors.length, 0);
    const ranking = checks.reduce((sum, c) => sum + c.rankingErrors.length, 0);
    const expected = (field: keyof JudgedFill['cents']) =>
      usd(fills.reduce((sum, f) => sum + f.cents[field], 0));
    const judged = (judgement: JudgedFill['judgement']) =>
      fills.filter((f) => f.judgement === judgement).length;
    return {
      savings_report_attribution_errors: split + ranking,
      savings_report_split_errors: split,
      savings_report_ranking_errors: ranking,
      savings_fleet_drives: outcomes.length,
      savings_fleet_fills_followed: judged('followed'),
      savings_fleet_fills_passed_over: judged('passed_over'),
      savings_fleet_fills_no_recommendation: judged('no_recommendation'),
      savings_fleet_fills_cheaper_elsewhere: checks.reduce((sum, c) => sum + c.cheaperElsewhere, 0),
      savings_fleet_savings_usd: usd(reported.savings),
      savings_fleet_missed_savings_usd: usd(reported.missed),
      savings_fleet_card_savings_usd: usd(reported.card),
      savings_fleet_expected_savings_usd: expected('savings'),
      savings_fleet_expected_missed_savings_usd: expected('missed'),
      savings_fleet_expected_card_savings_usd: expected('card'),
      purchase_verification_honest: verification.honest,
      purchase_verification_honest_verified: verification.verified,
      purchase_verification_honest_unverified: verification.unverified,
      purchase_verification_false_flags: verification.flagged,
      purchase_verification_hostile: verification.hostile,
      purchase_verification_hostile_missed: verification.hostile - verification.hostileFlagged,
      savings_attribution_seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const drives = args.find((arg) => !arg.startsWith('--'));
  console.table(
    await benchSavingsAttribution(Number(drives ?? DRIVES), { explain: args.includes('--explain') }),
  );
}
