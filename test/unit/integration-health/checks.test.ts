import { describe, expect, it } from 'vitest';
import {
  CHECKS,
  type CheckId,
  checkableShare,
  type HealthFigures,
  notChecked,
  runChecks,
  verifiedShare,
} from '#shared/integration-health/domain/checks.ts';
import { tallyIngest } from '#shared/integration-health/domain/ingest-tally.ts';
import {
  gradeOf,
  healthScore,
  isFailingEndpoint,
  nextSteps,
} from '#shared/integration-health/domain/score.ts';
import type { PositionFix } from '#shared/tracking/domain/positions.ts';

/** A healthy fleet: 10 trucks all reporting every 2 minutes with a level, one endpoint delivering. */
const HEALTHY: HealthFigures = {
  vehiclesActive: 10,
  vehiclesReporting24h: 10,
  vehiclesWithFuelLevel: 10,
  vehiclesMissingProfile: 0,
  breadcrumbs: 5_000,
  breadcrumbsWithLevel: 5_000,
  rejectedItems: 0,
  gapMsSum: 4_990 * 120_000,
  gapCount: 4_990,
  webhooks: { activeEndpoints: 1, attempts: 200, succeeded: 200, failingEndpoints: 0 },
  vehiclesWithGuidance: 3,
  fuelingsRecent: 4,
  purchases: { reported: 3, verified: 2, unverified: 1, flagged: 0 },
  keyAgeDays: 12,
};

const check = (figures: Partial<HealthFigures>, id: CheckId) => {
  const found = runChecks({ ...HEALTHY, ...figures }).find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

describe('the health checks', () => {
  it('publish an id, title and target for each, and weights that sum to 100', () => {
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(10);
    expect(CHECKS.reduce((sum, c) => sum + c.weight, 0)).toBe(100);
    for (const c of runChecks(HEALTHY)) {
      expect(c.title.length).toBeGreaterThan(0);
      expect(c.target.length).toBeGreaterThan(0);
      expect(c.status, c.id).toBe('pass');
    }
  });

  it('breadcrumb cadence: 1–5 minutes passes, sparser warns, beyond 15 fails, none fails, too often warns', () => {
    const gaps = (minutes: number) => ({ gapMsSum: minutes * 60_000 * 100, gapCount: 100 });
    expect(check(gaps(1), 'breadcrumb_cadence').status).toBe('pass');
    expect(check(gaps(5), 'breadcrumb_cadence')).toMatchObject({ status: 'pass', observed: '5 min' });
    expect(check(gaps(8), 'breadcrumb_cadence').status).toBe('warn');
    expect(check(gaps(16), 'breadcrumb_cadence').status).toBe('fail');
    // Every 15 s for real: 10 vehicles × 5,760 breadcrumbs a day.
    expect(check({ ...gaps(0.25), breadcrumbs: 57_600 }, 'breadcrumb_cadence').status).toBe('warn');
    expect(check({ breadcrumbs: 0, gapMsSum: 0, gapCount: 0 }, 'breadcrumb_cadence')).toMatchObject({
      status: 'fail',
      observed: 'no breadcrumbs',
    });
  });

  it('breadcrumb cadence is judged on the time vehicles were reporting, not averaged over the day', () => {
    // One truck reporting once a minute for 3 hours of the day: 180 breadcrumbs, 179 gaps of a minute.
    const threeHours = { vehiclesReporting24h: 1, breadcrumbs: 180, gapMsSum: 179 * 60_000, gapCount: 179 };
    const judged = check(threeHours, 'breadcrumb_cadence');
    expect(judged).toMatchObject({ status: 'pass', observed: '1 min' });
    expect(judged.detail).toBe(
      'About 1 minute between consecutive breadcrumbs of a vehicle while it was reporting (gaps over an hour left out).',
    );
    // Gaps measured sparser than the day's average (a truck sending 10-minute fixes) still count.
    const sparseGaps = { vehiclesReporting24h: 10, breadcrumbs: 5_000, gapMsSum: 10 * 600_000, gapCount: 10 };
    expect(check(sparseGaps, 'breadcrumb_cadence')).toMatchObject({ status: 'warn', observed: '10 min' });
  });

  it('breadcrumb cadence without a measured gap falls back to breadcrumbs per reporting vehicle over the day', () => {
    // No vehicle sent two breadcrumbs within an hour: 10 vehicles, 200 breadcrumbs a day.
    const estimated = check({ gapMsSum: 0, gapCount: 0, breadcrumbs: 200 }, 'breadcrumb_cadence');
    expect(estimated).toMatchObject({ status: 'fail', observed: '72 min' });
    expect(estimated.detail).toContain('over the day');
    expect(estimated.detail).toContain('no vehicle sent two breadcrumbs within an hour');
  });

  it('fuel-level coverage: at least 90% passes, at least 50% warns, less fails', () => {
    expect(check({ breadcrumbsWithLevel: 4_500 }, 'fuel_level_coverage')).toMatchObject({
      status: 'pass',
      observed: '90%',
    });
    expect(check({ breadcrumbsWithLevel: 4_499 }, 'fuel_level_coverage').status).toBe('warn');
    expect(check({ breadcrumbsWithLevel: 2_500 }, 'fuel_level_coverage').status).toBe('warn');
    expect(check({ breadcrumbsWithLevel: 2_499 }, 'fuel_level_coverage').status).toBe('fail');
    expect(check({ breadcrumbs: 0, breadcrumbsWithLevel: 0 }, 'fuel_level_coverage').status).toBe('warn');
  });

  it('vehicle profiles: none missing passes, up to 10% warns, more fails, no vehicles fails', () => {
    expect(check({ vehiclesMissingProfile: 1 }, 'vehicle_profiles')).toMatchObject({
      status: 'warn',
      observed: '1 vehicle missing',
    });
    expect(check({ vehiclesMissingProfile: 2 }, 'vehicle_profiles').status).toBe('fail');
    expect(check({ vehiclesActive: 0 }, 'vehicle_profiles').status).toBe('fail');
  });

  it('rejected items: under 1% passes, under 5% warns, 5% or more fails', () => {
    expect(check({ breadcrumbs: 990, rejectedItems: 9 }, 'rejected_items').status).toBe('pass');
    expect(check({ breadcrumbs: 990, rejectedItems: 10 }, 'rejected_items')).toMatchObject({
      status: 'warn',
      observed: '1%',
    });
    expect(check({ breadcrumbs: 95, rejectedItems: 5 }, 'rejected_items').status).toBe('fail');
  });

  it('silent vehicles: all reporting passes, up to 20% silent warns, more fails', () => {
    expect(check({ vehiclesReporting24h: 8 }, 'silent_vehicles')).toMatchObject({
      status: 'warn',
      observed: '2 silent',
    });
    expect(check({ vehiclesReporting24h: 7 }, 'silent_vehicles').status).toBe('fail');
  });

  it('webhook delivery: no active endpoint fails; subscribed with nothing to deliver passes; failures warn, then fail', () => {
    const webhooks = (w: Partial<HealthFigures['webhooks']>) => ({ webhooks: { ...HEALTHY.webhooks, ...w } });
    expect(check(webhooks({ activeEndpoints: 0 }), 'webhook_delivery').status).toBe('fail');
    expect(check(webhooks({ attempts: 0, succeeded: 0 }), 'webhook_delivery').status).toBe('pass');
    expect(check(webhooks({ attempts: 100, succeeded: 99 }), 'webhook_delivery').status).toBe('pass');
    expect(check(webhooks({ attempts: 100, succeeded: 98 }), 'webhook_delivery').status).toBe('warn');
    expect(check(webhooks({ failingEndpoints: 1 }), 'webhook_delivery').status).toBe('warn');
    expect(check(webhooks({ attempts: 100, succeeded: 49 }), 'webhook_delivery').status).toBe('fail');
  });

  it('guidance in use and fuelings recorded warn at zero', () => {
    expect(check({ vehiclesWithGuidance: 0 }, 'guidance_in_use').status).toBe('warn');
    expect(check({ fuelingsRecent: 0 }, 'fuelings_reported').status).toBe('warn');
  });

  it('key age: up to 90 days passes, up to 180 warns, older fails, unknown warns', () => {
    expect(check({ keyAgeDays: 90.5 }, 'key_age')).toMatchObject({ status: 'pass', observed: '90 days' });
    expect(check({ keyAgeDays: 91 }, 'key_age').status).toBe('warn');
    expect(check({ keyAgeDays: 181 }, 'key_age').status).toBe('fail');
    expect(check({ keyAgeDays: null }, 'key_age').status).toBe('warn');
  });

  it('purchases verifiable: half or more of the checked ones verified or flagged passes, less warns', () => {
    const purchases = (verified: number, unverified: number, flagged: number, notChecked = 0) => ({
      purchases: { reported: verified + unverified + flagged + notChecked, verified, unverified, flagged },
    });
    expect(check(purchases(5, 5, 0), 'purchases_verifiable')).toMatchObject({
      status: 'pass',
      observed: '50% checkable',
      detail:
        '5 of 10 purchases reported in the last 7 days could be checked against the truck’s own data (5 verified, 0 flagged); 5 had nothing to check them against (unverified).',
    });
    // 4 of 9 unverified: 5 checked (4 verified + 1 flagged), 55.6%.
    expect(check(purchases(4, 4, 1), 'purchases_verifiable')).toMatchObject({
      status: 'pass',
      observed: '55.6% checkable',
    });
    // A well-instrumented fleet with some fraud: 3 verified, 3 flagged, 1 unverified → 6 of 7 (85.7%),
    // where verified ÷ reported would be 42.9% and tell it to send fuel levels.
    expect(check(purchases(3, 1, 3), 'purchases_verifiable')).toMatchObject({
      status: 'pass',
      observed: '85.7% checkable',
    });
    // 2 of 5 checked (40%), warns; the 4 recorded before checks are left out.
    expect(check(purchases(1, 3, 1, 4), 'purchases_verifiable')).toMatchObject({
      status: 'warn',
      observed: '40% checkable',
      detail:
        '2 of 5 purchases reported in the last 7 days could be checked against the truck’s own data (1 verified, 1 flagged); 3 had nothing to check them against (unverified); 4 recorded before purchases were checked are left out.',
    });
    expect(check(purchases(0, 0, 0), 'purchases_verifiable')).toMatchObject({
      status: 'pass',
      observed: 'no purchases reported',
    });
    // All recorded before purchases were checked: nothing to judge.
    expect(check(purchases(0, 0, 0, 4), 'purchases_verifiable')).toMatchObject({
      status: 'pass',
      observed: 'no purchases checked',
    });
  });

  it('publishes verified ÷ reported and (verified + flagged) ÷ checked to three decimals, null with none', () => {
    expect(verifiedShare({ reported: 3, verified: 2, unverified: 1, flagged: 0 })).toBe(0.667);
    expect(verifiedShare({ reported: 0, verified: 0, unverified: 0, flagged: 0 })).toBeNull();
    // 7 reported, 1 before checks: (2 + 1) ÷ 6 = 0.5; verified alone 2 ÷ 7 = 0.286.
    const purchases = { reported: 7, verified: 2, unverified: 3, flagged: 1 };
    expect(notChecked(purchases)).toBe(1);
    expect(checkableShare(purchases)).toBe(0.5);
    expect(verifiedShare(purchases)).toBe(0.286);
    expect(checkableShare({ reported: 3, verified: 1, unverified: 0, flagged: 1 })).toBe(1);
    expect(checkableShare({ reported: 2, verified: 0, unverified: 0, flagged: 0 })).toBeNull();
    expect(checkableShare({ reported: 0, verified: 0, unverified: 0, flagged: 0 })).toBeNull();
  });
});

describe('the score, grade and next steps', () => {
  it('earns each check’s weight for a pass, half for a warn, none for a fail', () => {
    expect(healthScore(runChecks(HEALTHY))).toBe(100);
    // key_age (5) warns: 97.5 rounds to 98; cadence (20) fails as well: 78.
    expect(healthScore(runChecks({ ...HEALTHY, keyAgeDays: 100 }))).toBe(98);
    expect(
      healthScore(runChecks({ ...HEALTHY, keyAgeDays: 100, gapMsSum: 20 * 60_000 * 10, gapCount: 10 })),
    ).toBe(78);
  });

  it('grades A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below', () => {
    expect([100, 90, 89, 80, 79, 70, 69, 60, 59, 0].map(gradeOf)).toEqual([
      'A',
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
      'F',
      'F',
    ]);
  });

  it('orders next steps failures first, then by the points at stake; passing checks have none', () => {
    const checks = runChecks({
      ...HEALTHY,
      keyAgeDays: 400, // fail, 5 points
      fuelingsRecent: 0, // warn, 5
      vehiclesWithGuidance: 0, // warn, 6
      vehiclesReporting24h: 5, // fail, 15
    });
    expect(nextSteps(checks).map((s) => [s.severity, s.check_id])).toEqual([
      ['high', 'silent_vehicles'],
      ['high', 'key_age'],
      ['medium', 'guidance_in_use'],
      ['medium', 'fuelings_reported'],
    ]);
    expect(nextSteps(runChecks(HEALTHY))).toEqual([]);
  });

  it('calls an endpoint failing when most of its attempts failed', () => {
    expect(isFailingEndpoint(0, 0)).toBe(false);
    expect(isFailingEndpoint(10, 5)).toBe(false);
    expect(isFailingEndpoint(10, 4)).toBe(true);
  });
});

describe('tallyIngest', () => {
  const fix = (minute: number, level: number | null): PositionFix =>
    ({ recordedAtMs: minute * 60_000, fuelLevelPercent: level }) as PositionFix;

  it('counts breadcrumbs with a level and the gaps between a vehicle’s consecutive breadcrumbs, in time order', () => {
    const tally = tallyIngest(
      [{ fixes: [fix(4, 50), fix(0, 51), fix(2, null)] }, { fixes: [fix(10, 20)], previousLatestAtMs: null }],
      3,
    );
    expect(tally).toEqual({ accepted: 4, withLevel: 3, rejected: 3, gapMsSum: 4 * 60_000, gapCount: 2 });
  });

  it('leaves out gaps over an hour (a parked truck) and duplicates', () => {
    const tally = tallyIngest([{ fixes: [fix(0, 1), fix(0, 1), fix(61, 1), fix(63, 1)] }], 0);
    expect(tally).toMatchObject({ gapMsSum: 2 * 60_000, gapCount: 1 });
  });

  it('measures the gap from the vehicle’s previous position to a request’s first breadcrumb', () => {
    // One breadcrumb a request, a minute after the last one stored.
    expect(tallyIngest([{ fixes: [fix(11, 40)], previousLatestAtMs: 10 * 60_000 }], 0)).toMatchObject({
      gapMsSum: 60_000,
      gapCount: 1,
    });
    // A request of three, the first two minutes after the previous position.
    expect(
      tallyIngest([{ fixes: [fix(14, 1), fix(12, 1), fix(13, 1)], previousLatestAtMs: 10 * 60_000 }], 0),
    ).toMatchObject({ gapMsSum: 4 * 60_000, gapCount: 3 });
  });

  it('counts no gap for a resent breadcrumb, ends at the previous position, or a gap over an hour since it', () => {
    // The same breadcrumb sent again: no new gap.
    expect(tallyIngest([{ fixes: [fix(10, 1)], previousLatestAtMs: 10 * 60_000 }], 0).gapCount).toBe(0);
    // A late breadcrumb before the previous position: its gap to it was not this request's to count.
    expect(tallyIngest([{ fixes: [fix(5, 1)], previousLatestAtMs: 10 * 60_000 }], 0).gapCount).toBe(0);
    // Back after a night parked.
    expect(tallyIngest([{ fixes: [fix(600, 1)], previousLatestAtMs: 0 }], 0).gapCount).toBe(0);
  });

  it('reads a truck reporting once a minute for 3 hours, one breadcrumb a request, as a 1-minute cadence', () => {
    let previous: number | null = null;
    let gapMsSum = 0;
    let gapCount = 0;
    for (let minute = 0; minute < 180; minute += 1) {
      const tally = tallyIngest([{ fixes: [fix(600 + minute, 50)], previousLatestAtMs: previous }], 0);
      gapMsSum += tally.gapMsSum;
      gapCount += tally.gapCount;
      previous = (600 + minute) * 60_000;
    }
    const judged = runChecks({
      ...HEALTHY,
      vehiclesReporting24h: 1,
      breadcrumbs: 180,
      gapMsSum,
      gapCount,
    }).find((c) => c.id === 'breadcrumb_cadence');
    expect(gapCount).toBe(179);
    expect(judged).toMatchObject({ status: 'pass', observed: '1 min' });
  });
});
